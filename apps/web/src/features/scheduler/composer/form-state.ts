import { addDaysToDate, localDateOf, zonedDateTimeToUtc } from '@cadence/shared/schedule/planner';
import {
  postingBanCode,
  type Account,
  type CreatorInfo,
  type PrivacyLevel,
} from '@cadence/shared/schemas/account';
import type { DraftBody, SchedulePreviewBody } from '@cadence/shared/schemas/planning';
import {
  creatorOptionsForPost,
  type DatedCreatorOptions,
} from '@cadence/shared/schedule/creator-options';
import type { TranslationKey } from '@cadence/shared/translation-key';
import {
  addToQueueSchema,
  createScheduleSchema,
  type AddToQueueRequest,
  type CreateScheduleRequest,
  type Delivery,
  type IntervalUnit,
  type PublishType,
} from '@cadence/shared/schemas/schedule';

/** The form's publishing choices: the API's three timings, or 'Add to queue' (posting slots). */
export type FormMethod = PublishType | 'queue';

/** What the slide-over form holds besides the videos (those live in the upload hook). */
export interface ScheduleFormState {
  accountId: string;
  publishType: FormMethod;
  /** yyyy-MM-dd, in the person's time zone. */
  date: string;
  /** HH:MM */
  time: string;
  interval: {
    count: number;
    value: number;
    unit: IntervalUnit;
    startTime: string;
    /** yyyy-MM-dd: the first batch's day (default: today, or tomorrow once 09:00 has passed). */
    startDate: string;
    randomizeTime: boolean;
  };
  /** Posts beyond the account's daily cap: moved to the next day with room, or kept. */
  postponeOverCap: boolean;
  /** Caption per selected video, by the video's list key. */
  captions: Record<string, string>;
  /** Cover frame (ms) per video, by list key; absent until the creator moves its scrubber. */
  covers: Record<string, number>;
  /** '' until the person chooses: TikTok forbids a default we pick for them. */
  privacyLevel: PrivacyLevel | '';
  allowComment: boolean;
  allowDuet: boolean;
  allowStitch: boolean;
  commercialContent: { enabled: boolean; yourBrand: boolean; brandedContent: boolean };
  /** TikTok's 'AI-generated content' label. */
  isAigc: boolean;
  /** 'inbox': sent to the creator's TikTok inbox as a draft instead of published. */
  delivery: Delivery;
  consent: boolean;
}

/** Spec §9: default publish time 12:00; default interval count 1, value 1, hours, 09:00. */
export const DEFAULT_TIME = '12:00';
export const DEFAULT_START_TIME = '09:00';

/**
 * A spaced plan's default start date in `timeZone` (the person's): today while the default start
 * time is still ahead there, else tomorrow (the first 09:00 to come; a start in the past is
 * refused by the server).
 */
export function defaultStartDate(now: Date, timeZone: string): string {
  const today = localDateOf(now, timeZone);
  const start = zonedDateTimeToUtc(today, DEFAULT_START_TIME, timeZone);
  return start.getTime() >= now.getTime() ? today : addDaysToDate(today, 1);
}

/** The state a fresh form starts from (spec §3, §4 and §9): today is `now`'s day in `timeZone`. */
export function initialFormState(
  accountId: string,
  now: Date,
  timeZone: string,
): ScheduleFormState {
  return {
    accountId,
    publishType: 'immediate',
    date: localDateOf(now, timeZone),
    time: DEFAULT_TIME,
    interval: {
      count: 1,
      value: 1,
      unit: 'hours',
      startTime: DEFAULT_START_TIME,
      startDate: defaultStartDate(now, timeZone),
      randomizeTime: false,
    },
    postponeOverCap: false,
    captions: {},
    covers: {},
    privacyLevel: '',
    allowComment: false,
    allowDuet: false,
    allowStitch: false,
    commercialContent: { enabled: false, yourBrand: false, brandedContent: false },
    isAigc: false,
    delivery: 'direct',
    consent: false,
  };
}

/**
 * What 'Use my usual settings' fills in: the account's saved preferences, limited to what TikTok
 * allows right now (a privacy only when it is one of the creator's options and, with branded
 * content, not 'Only me'; an interaction only when not disabled). TikTok's guidelines forbid
 * filling them in before the creator asks, so this runs on that click only.
 */
export function accountDefaults(
  settings: Account['settings'] | undefined,
  creator: CreatorInfo | undefined,
  branded = false,
): Pick<ScheduleFormState, 'privacyLevel' | 'allowComment' | 'allowDuet' | 'allowStitch'> {
  const saved = settings?.defaultPrivacyLevel ?? null;
  const allowed =
    saved !== null &&
    creator?.privacyLevelOptions.includes(saved) === true &&
    !(branded && saved === 'SELF_ONLY');
  const privacyLevel = allowed ? saved : '';
  return {
    privacyLevel,
    allowComment: (settings?.allowComment ?? false) && !(creator?.commentDisabled ?? false),
    allowDuet: (settings?.allowDuet ?? false) && !(creator?.duetDisabled ?? false),
    allowStitch: (settings?.allowStitch ?? false) && !(creator?.stitchDisabled ?? false),
  };
}

/** The spaced count may not exceed the number of selected videos (spec §4); at least 1. */
export function clampIntervalCount(count: number, videoCount: number): number {
  return Math.max(1, Math.min(count, Math.max(1, videoCount)));
}

/**
 * The spaced count as typed, brought down to the number of selected videos (spec §4) but never
 * up: an emptied field (0) stays empty while the person types, and the schema reports it.
 */
export function capIntervalCount(count: number, videoCount: number): number {
  return Math.min(count, Math.max(1, videoCount));
}

export interface SelectedVideo {
  key: string;
  mediaId: string | null;
}

function readyVideos(videos: readonly SelectedVideo[]) {
  return videos.flatMap((video) => (video.mediaId ? [{ ...video, mediaId: video.mediaId }] : []));
}

/** The videos (those uploaded), their captions and the interactions: a schedule's and a draft's. */
function formContent(state: ScheduleFormState, videos: readonly SelectedVideo[]) {
  const ready = readyVideos(videos);
  return {
    mediaIds: ready.map((video) => video.mediaId),
    posts: ready.map((video) => {
      const cover = state.covers[video.key];
      return {
        mediaId: video.mediaId,
        title: state.captions[video.key] ?? '',
        ...(cover !== undefined && { coverTimestampMs: cover }),
      };
    }),
    allowComment: state.allowComment,
    allowDuet: state.allowDuet,
    allowStitch: state.allowStitch,
    commercialContent: state.commercialContent,
    isAigc: state.isAigc,
    delivery: state.delivery,
  };
}

/**
 * The body the form stands for, not yet validated: POST /api/schedules', or for 'queue' POST
 * /api/schedules/queue's (the same content; `publishType` tells which, and the queue schema drops
 * it). `draftId`: the draft the form was opened from, deleted with the schedule's creation.
 */
export function buildScheduleRequest(
  state: ScheduleFormState,
  videos: readonly SelectedVideo[],
  timeZone: string,
  draftId: string | null = null,
): unknown {
  const content = formContent(state, videos);
  return {
    accountId: state.accountId,
    mediaIds: content.mediaIds,
    publishType: state.publishType,
    timeZone,
    // An emptied date or time field is a missing one ('errors.dateRequired'), not a malformed one.
    ...(state.publishType === 'scheduled' && {
      date: state.date === '' ? undefined : state.date,
      time: state.time === '' ? undefined : state.time,
    }),
    ...(state.publishType === 'spaced' && {
      spacedInterval: {
        ...state.interval,
        count: capIntervalCount(state.interval.count, content.mediaIds.length),
      },
    }),
    posts: content.posts,
    // Unset: the schema reports 'errors.selectPrivacy', except for an inbox draft, which has none
    // (nor interactions, nor labels): the creator sets them in the TikTok app, and the form
    // hides them.
    privacyLevel:
      state.delivery === 'inbox' || state.privacyLevel === '' ? undefined : state.privacyLevel,
    allowComment: state.delivery !== 'inbox' && content.allowComment,
    allowDuet: state.delivery !== 'inbox' && content.allowDuet,
    allowStitch: state.delivery !== 'inbox' && content.allowStitch,
    commercialContent:
      state.delivery === 'inbox'
        ? { enabled: false, yourBrand: false, brandedContent: false }
        : content.commercialContent,
    isAigc: state.delivery !== 'inbox' && content.isAigc,
    delivery: content.delivery,
    consent: state.consent,
    ...(state.postponeOverCap && state.publishType !== 'queue' && { overCap: 'postpone' }),
    ...(draftId !== null && state.publishType !== 'queue' && { draftId }),
  };
}

/**
 * POST /api/schedules/preview's body for the form's timing, or null when there is nothing to
 * preview yet (no account, no ready video, a timing the preview has no slots for, a field the
 * person is still typing). The preview answers with the very slots the schedule would get.
 */
export function buildPreviewRequest(
  state: ScheduleFormState,
  videos: readonly SelectedVideo[],
  timeZone: string,
): SchedulePreviewBody | null {
  if (state.publishType !== 'scheduled' && state.publishType !== 'spaced') return null;
  const ready = readyVideos(videos);
  if (state.accountId === '' || ready.length === 0) return null;
  const request = buildScheduleRequest(state, ready, timeZone);
  const parsed = createScheduleSchema.safeParse({
    ...(request as object),
    // Only the timing matters here: the content's own rules are the submit's business.
    privacyLevel: 'SELF_ONLY',
    consent: true,
    commercialContent: { enabled: false, yourBrand: false, brandedContent: false },
    posts: ready.map((video) => ({ mediaId: video.mediaId, title: '' })),
  });
  if (!parsed.success) return null;
  const { accountId, mediaIds, publishType, date, time, spacedInterval } = parsed.data;
  return {
    accountId,
    mediaIds,
    publishType,
    timeZone,
    ...(date !== undefined && { date }),
    ...(time !== undefined && { time }),
    ...(spacedInterval !== undefined && { spacedInterval }),
  };
}

/** POST/PUT /api/drafts' body: whatever the form holds, unfinished parts included, no time. */
export function buildDraftBody(state: ScheduleFormState, videos: readonly SelectedVideo[]) {
  return {
    accountId: state.accountId === '' ? null : state.accountId,
    ...formContent(state, videos),
    privacyLevel: state.privacyLevel === '' ? null : state.privacyLevel,
  } satisfies DraftBody;
}

/**
 * `?at=2026-12-01T18:30` (a local date-time, as the calendar's empty slots link it): the date and
 * time the form opens on, 'scheduled'. Anything else (a zone suffix, seconds…) is ignored: null.
 */
export function parseAtParam(
  at: string | null,
): Pick<ScheduleFormState, 'publishType' | 'date' | 'time'> | null {
  const match = at === null ? null : /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})$/.exec(at);
  if (!match) return null;
  const [, date = '', time = ''] = match;
  const [year, month, day] = date.split('-').map(Number);
  const [hour, minute] = time.split(':').map(Number);
  const parsed = new Date(Date.UTC(year ?? 0, (month ?? 1) - 1, day ?? 0));
  const exists = parsed.getUTCDate() === day && parsed.getUTCMonth() + 1 === month;
  if (!exists || (hour ?? 24) > 23 || (minute ?? 60) > 59) return null;
  return { publishType: 'scheduled', date, time };
}

/** Where a message shows in the form. Captions are per video: `caption:<index>`. */
export type FormField =
  | 'videos'
  | 'accountId'
  | 'publishType'
  | 'date'
  | 'time'
  | 'interval.count'
  | 'interval.value'
  | 'interval.unit'
  | 'interval.startTime'
  | 'interval.startDate'
  | 'interval.randomizeTime'
  | `caption:${number}`
  | 'privacyLevel'
  | 'interactions'
  | 'commercialContent'
  | 'consent'
  | 'form';

const intervalFields: Record<string, FormField> = {
  count: 'interval.count',
  value: 'interval.value',
  unit: 'interval.unit',
  startTime: 'interval.startTime',
  startDate: 'interval.startDate',
  randomizeTime: 'interval.randomizeTime',
};

/** Maps an issue path (zod's, or a server `fields` key like 'spacedInterval.count') to a field. */
export function fieldForPath(path: readonly PropertyKey[]): FormField {
  const [head, second, third] = path.map(String);
  switch (head) {
    case 'accountId':
    case 'publishType':
    case 'date':
    case 'time':
    case 'privacyLevel':
    case 'commercialContent':
    case 'consent':
      return head;
    case 'mediaIds':
      return 'videos';
    case 'posts':
      return second !== undefined && third === 'title' && /^\d+$/.test(second)
        ? `caption:${Number(second)}`
        : 'videos';
    case 'spacedInterval':
      return (second !== undefined && intervalFields[second]) || 'interval.count';
    case 'allowComment':
    case 'allowDuet':
    case 'allowStitch':
      return 'interactions';
    case undefined:
    default:
      return 'form';
  }
}

export type FieldErrors = Partial<Record<FormField, string>>;

/** What the form submits: a schedule, or videos for the queue's next free slots. */
export type FormRequest =
  { kind: 'schedule'; body: CreateScheduleRequest } | { kind: 'queue'; body: AddToQueueRequest };

/** Validates with the API's own schema (the queue's for 'queue'); the first message per field wins. */
export function validateSchedule(
  request: unknown,
): { ok: true; request: FormRequest } | { ok: false; errors: FieldErrors } {
  const queue =
    typeof request === 'object' &&
    request !== null &&
    'publishType' in request &&
    request.publishType === 'queue';
  if (queue) {
    const result = addToQueueSchema.safeParse(request);
    return result.success
      ? { ok: true, request: { kind: 'queue', body: result.data } }
      : { ok: false, errors: issueErrors(result.error.issues) };
  }
  const result = createScheduleSchema.safeParse(request);
  return result.success
    ? { ok: true, request: { kind: 'schedule', body: result.data } }
    : { ok: false, errors: issueErrors(result.error.issues) };
}

function issueErrors(issues: readonly { path: PropertyKey[]; message: string }[]): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const field = fieldForPath(issue.path);
    errors[field] ??= issue.message;
  }
  return errors;
}

/** A server's `fields` ({ 'spacedInterval.count': 'errors.invalidIntervalCount' }) as form errors. */
export function serverFieldErrors(fields: Record<string, string>): FieldErrors {
  const errors: FieldErrors = {};
  for (const [path, key] of Object.entries(fields)) {
    errors[fieldForPath(path.split('.'))] ??= key;
  }
  return errors;
}

/**
 * Whether every field a refusal names already shows that very message in the form: the plan
 * preview then does not repeat it (a past date is said once, under its field).
 */
export function shownAtFields(fields: Record<string, string>, errors: FieldErrors): boolean {
  const named = Object.entries(serverFieldErrors(fields));
  return named.length > 0 && named.every(([field, key]) => errors[field as FormField] === key);
}

/** Whether the account has preferences saved that 'Use my usual settings' could fill in. */
export function hasUsualSettings(settings: Account['settings'] | undefined): boolean {
  return (
    settings !== undefined &&
    (settings.defaultPrivacyLevel !== null ||
      settings.allowComment ||
      settings.allowDuet ||
      settings.allowStitch)
  );
}

/**
 * The privacy levels the form offers: the creator's options from creator_info, or only 'Only me'
 * while TikTok has not audited the app (TIKTOK_APP_AUDITED=false).
 */
export function offeredPrivacyLevels(
  creator: Pick<CreatorInfo, 'privacyLevelOptions'> | undefined,
  audited: boolean,
): PrivacyLevel[] {
  const options = creator?.privacyLevelOptions ?? [];
  return audited ? options : options.filter((level) => level === 'SELF_ONLY');
}

/** An unaudited app cannot post to a public account: creator_info offers it PUBLIC_TO_EVERYONE. */
export function unauditedPublicAccount(
  creator: Pick<CreatorInfo, 'privacyLevelOptions'> | undefined,
  audited: boolean,
): boolean {
  return !audited && (creator?.privacyLevelOptions.includes('PUBLIC_TO_EVERYONE') ?? false);
}

/**
 * Why the publish button is disabled, as the key of the text shown beside it (and on hover), or
 * null. TikTok's guidelines: with the disclosure on, publishing stays disabled until 'Your brand'
 * or 'Branded content' is ticked; an unaudited app cannot post to a public account at all.
 */
export function submitBlockedKey(
  commercialContent: ScheduleFormState['commercialContent'],
  creator: Pick<CreatorInfo, 'privacyLevelOptions'> | undefined,
  audited: boolean,
  delivery: ScheduleFormState['delivery'] = 'direct',
): TranslationKey | null {
  // The unaudited limits are on direct posts; an inbox draft's privacy is set in TikTok's app.
  if (delivery === 'direct' && unauditedPublicAccount(creator, audited))
    return 'scheduler.form.unaudited.publicAccount';
  // An inbox draft carries no labels (the form hides them and sends none).
  if (delivery === 'inbox') return null;
  const { enabled, yourBrand, brandedContent } = commercialContent;
  return enabled && !yourBrand && !brandedContent ? 'errors.commercialContentChoice' : null;
}

/**
 * Whether every post of the form is due on a later day than `today` (the person's 'yyyy-MM-dd'):
 * what decides, while TikTok says the account cannot post now, whether TikTok's last known options
 * apply (creatorOptionsForPost). 'Add to queue' starts tomorrow then (the server skips today).
 */
export function postsDueLaterDay(
  state: Pick<ScheduleFormState, 'publishType' | 'date' | 'interval'>,
  today: string,
): boolean {
  switch (state.publishType) {
    case 'immediate':
      return false;
    case 'scheduled':
      return state.date > today;
    case 'spaced':
      return state.interval.startDate > today;
    case 'queue':
      return true;
  }
}

/**
 * Whether what TikTok says about the account stops this submission: not knowing the account at
 * all (creator info failed), or no options the posts may use (`creatorOptionsForPost`: TikTok's
 * 'cannot post now' stops a post due today and every post of a suspended account, never one due
 * on a later day once TikTok's last options are known).
 */
export function creatorBlocksSubmit(
  creator: CreatorInfo | undefined,
  creatorFailed: boolean,
  laterDay: boolean,
): boolean {
  if (creatorFailed) return true;
  return creator !== undefined && creatorOptionsForPost(creator, laterDay) === null;
}

/**
 * What the form says about TikTok's options while TikTok says the account cannot post now (a
 * suspension is said on the account card alone): whose date they are (`reportedOn`), that a
 * post due today gets none (`laterDayOnly`), or that TikTok never gave any (`noneKnown`).
 */
export type CreatorOptionsNote =
  | { kind: 'reportedOn'; fetchedAt: string }
  | { kind: 'laterDayOnly' }
  | { kind: 'noneKnown' }
  | null;

export function creatorOptionsNote(
  creator: CreatorInfo | undefined,
  options: DatedCreatorOptions | null | undefined,
): CreatorOptionsNote {
  const reason = creator?.cannotPostReason ?? null;
  if (!creator || reason === null || reason === postingBanCode) return null;
  if (options?.fetchedAt != null) return { kind: 'reportedOn', fetchedAt: options.fetchedAt };
  return creator.lastKnown === null ? { kind: 'noneKnown' } : { kind: 'laterDayOnly' };
}
