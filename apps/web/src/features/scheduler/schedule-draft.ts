import type { Account, CreatorInfo } from '@cadence/shared/schemas/account';
import type { Media } from '@cadence/shared/schemas/media';
import type { UploadItem } from '../../lib/upload.ts';
import {
  accountDefaults,
  buildScheduleRequest,
  clampIntervalCount,
  initialFormState,
  validateSchedule,
  type FieldErrors,
  type ScheduleFormState,
} from './form-state.ts';
import type { FormVideo } from './components/video-field.tsx';

/** The options an account's saved defaults fill in until the person sets them (spec §4). */
type AccountOption = 'privacyLevel' | 'allowComment' | 'allowDuet' | 'allowStitch';
export type DraftFields = Omit<ScheduleFormState, 'accountId' | AccountOption>;
export type DraftEdit = Partial<Omit<ScheduleFormState, 'accountId'>>;

/**
 * What the person did in the slide-over form, and nothing that can be derived: the requested
 * account and the account's defaults are worked out from the props on each render
 * (`scheduleFormValues`), so no effect copies them in and nothing goes stale.
 */
export interface ScheduleDraft {
  fields: DraftFields;
  /** null until the person picks an account: meanwhile the `?account=` one shows, once known. */
  accountId: string | null;
  /** Only the options the person set; the others show the account's saved defaults. */
  options: Partial<Pick<ScheduleFormState, AccountOption>>;
  /** Existing media attached (a `?media=` link), in order; uploads live in the upload hook. */
  attached: string[];
  /** A submit was tried: client-side messages show from then on. */
  attempted: boolean;
  /** The last refusal's per-field messages; any change clears them. */
  serverErrors: FieldErrors;
}

export type DraftAction =
  | { type: 'edit'; patch: DraftEdit }
  | { type: 'selectAccount'; accountId: string }
  | { type: 'caption'; key: string; caption: string }
  | { type: 'videosAdded' }
  /** `remaining`: how many videos the form holds once this one is gone. */
  | { type: 'videoRemoved'; key: string; attachedId: string | null; remaining: number }
  | { type: 'submitted' }
  | { type: 'refused'; errors: FieldErrors }
  /** Spec §4: videos cleared (the media stay stored), method immediate, 12:00, today. */
  | { type: 'scheduled'; accountId: string; now: Date };

const accountOptions: readonly AccountOption[] = [
  'privacyLevel',
  'allowComment',
  'allowDuet',
  'allowStitch',
];
const isAccountOption = (key: string): key is AccountOption =>
  accountOptions.some((option) => option === key);

function freshFields(now: Date): DraftFields {
  const {
    accountId: _accountId,
    privacyLevel: _privacyLevel,
    allowComment: _allowComment,
    allowDuet: _allowDuet,
    allowStitch: _allowStitch,
    ...fields
  } = initialFormState('', now);
  return fields;
}

/** A fresh form; a `?media=` video comes attached (read once by the page, so once here too). */
export function initialDraft(
  requestedMediaId: string | null,
  now: Date = new Date(),
): ScheduleDraft {
  return {
    fields: freshFields(now),
    accountId: null,
    options: {},
    attached: requestedMediaId ? [requestedMediaId] : [],
    attempted: false,
    serverErrors: {},
  };
}

export function scheduleDraftReducer(draft: ScheduleDraft, action: DraftAction): ScheduleDraft {
  switch (action.type) {
    case 'edit': {
      const fields: Partial<DraftFields> = {};
      const options: ScheduleDraft['options'] = {};
      for (const [key, value] of Object.entries(action.patch)) {
        if (isAccountOption(key)) Object.assign(options, { [key]: value });
        else Object.assign(fields, { [key]: value });
      }
      return {
        ...draft,
        fields: { ...draft.fields, ...fields },
        options: { ...draft.options, ...options },
        serverErrors: {},
      };
    }
    case 'selectAccount':
      // A new account starts from its own defaults, not from the previous account's choices.
      return { ...draft, accountId: action.accountId, options: {}, serverErrors: {} };
    case 'caption':
      return {
        ...draft,
        fields: {
          ...draft.fields,
          captions: { ...draft.fields.captions, [action.key]: action.caption },
        },
        serverErrors: {},
      };
    case 'videosAdded':
      return { ...draft, serverErrors: {} };
    case 'videoRemoved': {
      const { interval } = draft.fields;
      // Spec §4: the spaced count follows the number of selected videos down (an emptied field,
      // 0, stays empty for the schema to report).
      const count = interval.count === 0 ? 0 : clampIntervalCount(interval.count, action.remaining);
      return {
        ...draft,
        attached: draft.attached.filter((id) => id !== action.attachedId),
        fields: {
          ...draft.fields,
          interval: { ...interval, count },
          captions: Object.fromEntries(
            Object.entries(draft.fields.captions).filter(([key]) => key !== action.key),
          ),
        },
        serverErrors: {},
      };
    }
    case 'submitted':
      return { ...draft, attempted: true };
    case 'refused':
      return { ...draft, serverErrors: action.errors };
    case 'scheduled':
      return { ...initialDraft(null, action.now), accountId: action.accountId };
  }
}

/** The account shown: the person's choice, else the requested one once it is schedulable. */
export function draftAccountId(
  draft: ScheduleDraft,
  requestedAccountId: string | null,
  accounts: readonly Account[],
): string {
  if (draft.accountId !== null) return draft.accountId;
  return requestedAccountId !== null &&
    accounts.some((candidate) => candidate.id === requestedAccountId)
    ? requestedAccountId
    : '';
}

/**
 * Everything the form shows: the person's own values over the account's saved defaults, which
 * count only once TikTok's creator info for that account is in (they are limited by it).
 */
export function scheduleFormValues(
  draft: ScheduleDraft,
  accountId: string,
  account: Account | undefined,
  creator: CreatorInfo | undefined,
): ScheduleFormState {
  const defaults =
    account && creator
      ? accountDefaults(account.settings, creator)
      : { privacyLevel: '' as const, allowComment: false, allowDuet: false, allowStitch: false };
  return { ...draft.fields, accountId, ...defaults, ...draft.options };
}

/** A query's outcome for one attached media: what `useMediaList` gives per id. */
export interface MediaLookup {
  data: Media | undefined;
  isError: boolean;
}

/** Every video the form holds, in the order chosen: attached media first, then uploads. */
export function formVideos({
  attached,
  attachedMedia,
  uploads,
  uploadedMedia,
  maxDuration,
}: {
  attached: readonly string[];
  /** Same order as `attached`. */
  attachedMedia: readonly (MediaLookup | undefined)[];
  uploads: readonly UploadItem[];
  /** The stored media of the finished uploads, by media id. */
  uploadedMedia: ReadonlyMap<string, Media>;
  /** The creator's longest allowed video, when known. */
  maxDuration: number | null;
}): FormVideo[] {
  const tooLong = (duration: number | undefined) =>
    maxDuration !== null && duration !== undefined && duration > maxDuration ? maxDuration : null;
  const fromMedia = attached.map((mediaId, index): FormVideo => {
    const query = attachedMedia[index];
    const media = query?.data;
    return {
      key: `media-${mediaId}`,
      name: media?.originalName ?? mediaId,
      previewUrl: null,
      thumbnailUrl: media?.thumbnailUrl ?? null,
      status: media ? 'done' : query?.isError ? 'error' : 'uploading',
      progress: media ? 1 : 0,
      mediaId: media ? mediaId : null,
      rejection: null,
      maxBytes: null,
      tooLongFor: tooLong(media?.durationSeconds),
      missing: query?.isError ?? false,
    };
  });
  const fromUploads = uploads.map((item): FormVideo => {
    const media = item.mediaId ? uploadedMedia.get(item.mediaId) : undefined;
    return {
      key: item.key,
      name: item.file.name,
      previewUrl: item.previewUrl,
      thumbnailUrl: media?.thumbnailUrl ?? null,
      status: item.status,
      progress: item.progress,
      mediaId: item.mediaId,
      rejection: item.rejection,
      maxBytes: item.maxBytes,
      tooLongFor: tooLong(media?.durationSeconds),
      missing: false,
    };
  });
  return [...fromMedia, ...fromUploads];
}

/**
 * The form checked with the API's own schema, plus what only the form knows about its videos.
 * `errors` is what shows: client messages once a submit was tried, the server's always.
 */
export function scheduleFormCheck(
  values: ScheduleFormState,
  videos: readonly FormVideo[],
  draft: Pick<ScheduleDraft, 'attempted' | 'serverErrors'>,
  timeZone: string,
) {
  const validation = validateSchedule(buildScheduleRequest(values, videos, timeZone));
  const clientErrors: FieldErrors = validation.ok ? {} : { ...validation.errors };
  // Videos still uploading are selected, just not ready: the submit button waits for them.
  if (videos.length > 0 && clientErrors.videos === 'errors.selectVideo') delete clientErrors.videos;
  if (videos.some((video) => video.status === 'error'))
    clientErrors.videos ??= 'scheduler.form.videos.removeFailed';
  if (videos.some((video) => video.tooLongFor !== null))
    clientErrors.videos ??= 'scheduler.form.videos.removeTooLong';
  const errors: FieldErrors = draft.attempted
    ? { ...clientErrors, ...draft.serverErrors }
    : draft.serverErrors;
  const request =
    validation.ok && Object.keys(clientErrors).length === 0 ? validation.request : null;
  return { request, clientErrors, errors };
}
