import type { Account, CreatorInfo, PrivacyLevel } from '@cadence/shared/schemas/account';
import {
  createScheduleSchema,
  type CreateScheduleRequest,
  type IntervalUnit,
  type PublishType,
} from '@cadence/shared/schemas/schedule';

/** What the slide-over form holds besides the videos (those live in the upload hook). */
export interface ScheduleFormState {
  accountId: string;
  publishType: PublishType;
  /** yyyy-MM-dd, in the browser's time zone. */
  date: string;
  /** HH:MM */
  time: string;
  interval: {
    count: number;
    value: number;
    unit: IntervalUnit;
    startTime: string;
    randomizeTime: boolean;
  };
  /** Caption per selected video, by the video's list key. */
  captions: Record<string, string>;
  /** '' until the person chooses: TikTok forbids a default we pick for them. */
  privacyLevel: PrivacyLevel | '';
  allowComment: boolean;
  allowDuet: boolean;
  allowStitch: boolean;
  commercialContent: { enabled: boolean; yourBrand: boolean; brandedContent: boolean };
  consent: boolean;
}

/** Spec §9: default publish time 12:00; default interval count 1, value 1, hours, 09:00. */
export const DEFAULT_TIME = '12:00';
export const DEFAULT_START_TIME = '09:00';

/** Today as yyyy-MM-dd in the browser's own time zone (not UTC's). */
export function todayIsoDate(now: Date = new Date()): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** The state a fresh form starts from (spec §3, §4 and §9). */
export function initialFormState(accountId = '', now: Date = new Date()): ScheduleFormState {
  return {
    accountId,
    publishType: 'immediate',
    date: todayIsoDate(now),
    time: DEFAULT_TIME,
    interval: {
      count: 1,
      value: 1,
      unit: 'hours',
      startTime: DEFAULT_START_TIME,
      randomizeTime: false,
    },
    captions: {},
    privacyLevel: '',
    allowComment: false,
    allowDuet: false,
    allowStitch: false,
    commercialContent: { enabled: false, yourBrand: false, brandedContent: false },
    consent: false,
  };
}

/**
 * The options the account's own saved defaults give, limited to what TikTok allows right now:
 * a default privacy only when it is one of the creator's options, an interaction only when not
 * disabled. Without saved defaults everything stays unchosen/unchecked.
 */
export function accountDefaults(
  settings: Account['settings'] | undefined,
  creator: CreatorInfo | undefined,
): Pick<ScheduleFormState, 'privacyLevel' | 'allowComment' | 'allowDuet' | 'allowStitch'> {
  const saved = settings?.defaultPrivacyLevel ?? null;
  const privacyLevel = saved !== null && creator?.privacyLevelOptions.includes(saved) ? saved : '';
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

/** The POST /api/schedules body the form stands for; not yet validated. */
export function buildScheduleRequest(
  state: ScheduleFormState,
  videos: readonly SelectedVideo[],
  timeZone: string,
): unknown {
  const ready = videos.flatMap((video) =>
    video.mediaId ? [{ ...video, mediaId: video.mediaId }] : [],
  );
  return {
    accountId: state.accountId,
    mediaIds: ready.map((video) => video.mediaId),
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
        count: capIntervalCount(state.interval.count, ready.length),
      },
    }),
    posts: ready.map((video) => ({
      mediaId: video.mediaId,
      title: state.captions[video.key] ?? '',
    })),
    // Not a valid enum value: the schema reports 'errors.selectPrivacy'.
    privacyLevel: state.privacyLevel === '' ? undefined : state.privacyLevel,
    allowComment: state.allowComment,
    allowDuet: state.allowDuet,
    allowStitch: state.allowStitch,
    commercialContent: state.commercialContent,
    consent: state.consent,
  };
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

/** Validates with the API's own schema; the first message per field wins. */
export function validateSchedule(
  request: unknown,
): { ok: true; request: CreateScheduleRequest } | { ok: false; errors: FieldErrors } {
  const result = createScheduleSchema.safeParse(request);
  if (result.success) return { ok: true, request: result.data };
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const field = fieldForPath(issue.path);
    errors[field] ??= issue.message;
  }
  return { ok: false, errors };
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
 * Whether what TikTok says about the account stops this submission: its 'cannot post now' (e.g.
 * today's limit reached) only stops a post going out now, never one dated later; not knowing the
 * account at all (creator info failed) stops everything.
 */
export function creatorBlocksSubmit(
  creator: Pick<CreatorInfo, 'cannotPostReason'> | undefined,
  creatorFailed: boolean,
  publishType: PublishType,
): boolean {
  if (creatorFailed) return true;
  return creator?.cannotPostReason != null && publishType === 'immediate';
}
