import type { Account, CreatorInfo } from '@cadence/shared/schemas/account';
import type { Media } from '@cadence/shared/schemas/media';
import type { Draft } from '@cadence/shared/schemas/planning';
import type { UploadItem } from '../../../lib/upload.ts';
import { validateSchedule, type FieldErrors } from './form-errors.ts';
import { buildScheduleRequest } from './form-request.ts';
import {
  accountDefaults,
  clampIntervalCount,
  initialFormState,
  parseAtParam,
  type ScheduleFormState,
} from './form-state.ts';
import type { FormVideo } from './video-field.tsx';

/** The options 'Use my usual settings' can fill in from the account's saved preferences. */
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
  /** Only the options the person set; the others stay unchosen (TikTok forbids defaults). */
  options: Partial<Pick<ScheduleFormState, AccountOption>>;
  /** Existing media attached (a `?media=` link), in order; uploads live in the upload hook. */
  attached: string[];
  /** A submit was tried: client-side messages show from then on. */
  attempted: boolean;
  /** The last refusal's per-field messages; any change clears them. */
  serverErrors: FieldErrors;
  /** The saved draft the form holds (opened from the drafts list, or saved): saving updates it. */
  savedDraftId: string | null;
}

export type DraftAction =
  | { type: 'edit'; patch: DraftEdit }
  | { type: 'selectAccount'; accountId: string }
  | { type: 'caption'; key: string; caption: string }
  | { type: 'cover'; key: string; ms: number }
  | { type: 'videosAdded' }
  /** `remaining`: how many videos the form holds once this one is gone. */
  | { type: 'videoRemoved'; key: string; attachedId: string | null; remaining: number }
  | { type: 'submitted' }
  | { type: 'refused'; errors: FieldErrors }
  /** Spec §4: videos cleared (the media stay stored), method immediate, 12:00, today. */
  | { type: 'scheduled'; accountId: string; now: Date; timeZone: string }
  /** A saved draft opened into the form: its videos attached, its captions and settings. */
  | { type: 'openDraft'; draft: Draft; now: Date; timeZone: string }
  /** Saved as a draft: the form starts over, as after a schedule. */
  | { type: 'draftSaved'; accountId: string; now: Date; timeZone: string }
  /** A draft deleted from the list: the form no longer holds a saved draft if it was that one. */
  | { type: 'draftDeleted'; id: string };

const accountOptions: readonly AccountOption[] = [
  'privacyLevel',
  'allowComment',
  'allowDuet',
  'allowStitch',
];
const isAccountOption = (key: string): key is AccountOption =>
  accountOptions.some((option) => option === key);

function freshFields(now: Date, timeZone: string): DraftFields {
  const {
    accountId: _accountId,
    privacyLevel: _privacyLevel,
    allowComment: _allowComment,
    allowDuet: _allowDuet,
    allowStitch: _allowStitch,
    ...fields
  } = initialFormState('', now, timeZone);
  return fields;
}

/**
 * A fresh form; a `?media=` video comes attached and a `?at=` date-time ('yyyy-MM-ddTHH:mm')
 * opens it on 'scheduled' at that moment (read once by the page, so once here too).
 */
export function initialDraft(
  requestedMediaId: string | null,
  now: Date,
  timeZone: string,
  requestedAt: string | null = null,
): ScheduleDraft {
  return {
    fields: { ...freshFields(now, timeZone), ...parseAtParam(requestedAt) },
    accountId: null,
    options: {},
    attached: requestedMediaId ? [requestedMediaId] : [],
    attempted: false,
    serverErrors: {},
    savedDraftId: null,
  };
}

/** The form holding a saved draft: its videos (attached media), captions, account and settings. */
function openedDraft(draft: Draft, now: Date, timeZone: string): ScheduleDraft {
  const fresh = initialDraft(null, now, timeZone);
  const options: ScheduleDraft['options'] = {
    allowComment: draft.allowComment,
    allowDuet: draft.allowDuet,
    allowStitch: draft.allowStitch,
    ...(draft.privacyLevel !== null && { privacyLevel: draft.privacyLevel }),
  };
  return {
    ...fresh,
    fields: {
      ...fresh.fields,
      // Captions are kept by the video's list key; attached media are listed as `media-<id>`.
      captions: Object.fromEntries(
        draft.videos.map((video) => [`media-${video.mediaId}`, video.title]),
      ),
      covers: Object.fromEntries(
        draft.videos.flatMap((video) =>
          video.coverTimestampMs === null
            ? []
            : [[`media-${video.mediaId}`, video.coverTimestampMs]],
        ),
      ),
      commercialContent: draft.commercialContent,
      isAigc: draft.isAigc,
      delivery: draft.delivery,
    },
    accountId: draft.accountId,
    options,
    attached: draft.videos.map((video) => video.mediaId),
    savedDraftId: draft.id,
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
      // A new account starts unchosen, not from the previous account's choices.
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
    case 'cover':
      return {
        ...draft,
        fields: { ...draft.fields, covers: { ...draft.fields.covers, [action.key]: action.ms } },
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
          covers: Object.fromEntries(
            Object.entries(draft.fields.covers).filter(([key]) => key !== action.key),
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
    case 'draftSaved':
      return { ...initialDraft(null, action.now, action.timeZone), accountId: action.accountId };
    case 'openDraft':
      return openedDraft(action.draft, action.now, action.timeZone);
    case 'draftDeleted':
      return draft.savedDraftId === action.id ? { ...draft, savedDraftId: null } : draft;
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

const unchosen = {
  privacyLevel: '',
  allowComment: false,
  allowDuet: false,
  allowStitch: false,
} as const satisfies Pick<ScheduleFormState, AccountOption>;

/**
 * Everything the form shows: the person's own values, and nothing chosen for them. The account's
 * saved preferences come in only through 'Use my usual settings' (`usualSettingsEdit`).
 */
export function scheduleFormValues(draft: ScheduleDraft, accountId: string): ScheduleFormState {
  return { ...draft.fields, accountId, ...unchosen, ...draft.options };
}

/** The edit 'Use my usual settings' makes, once TikTok's creator info is in (it limits them). */
export function usualSettingsEdit(
  account: Account | undefined,
  creator: CreatorInfo | undefined,
  values: ScheduleFormState,
): DraftEdit | null {
  if (!account || !creator) return null;
  const { enabled, brandedContent } = values.commercialContent;
  return accountDefaults(account.settings, creator, enabled && brandedContent);
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
      transfer: null,
      mediaId: media ? mediaId : null,
      rejection: null,
      maxBytes: null,
      tooLongFor: tooLong(media?.durationSeconds),
      missing: query?.isError ?? false,
      coverSource: media ? { url: media.fileUrl, durationSeconds: media.durationSeconds } : null,
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
      transfer: item.transfer,
      mediaId: item.mediaId,
      rejection: item.rejection,
      maxBytes: item.maxBytes,
      tooLongFor: tooLong(media?.durationSeconds),
      missing: false,
      // The local file: frames show without downloading the stored copy.
      coverSource: media ? { url: item.previewUrl, durationSeconds: media.durationSeconds } : null,
    };
  });
  return [...fromMedia, ...fromUploads];
}

/** A file the form lists to say why it will not be posted: refused, or too long for the account. */
export function isRefused(video: FormVideo): boolean {
  return video.status === 'error' || video.tooLongFor !== null;
}

/**
 * The form checked with the API's own schema, plus what only the form knows about its videos.
 * `errors` is what shows: client messages once a submit was tried, the server's always.
 */
export function scheduleFormCheck(
  values: ScheduleFormState,
  videos: readonly FormVideo[],
  draft: Pick<ScheduleDraft, 'attempted' | 'serverErrors' | 'savedDraftId'>,
  timeZone: string,
) {
  const validation = validateSchedule(
    buildScheduleRequest(values, videos, timeZone, draft.savedDraftId),
  );
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
