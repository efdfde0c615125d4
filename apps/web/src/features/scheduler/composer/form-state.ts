import { addDaysToDate, localDateOf, zonedDateTimeToUtc } from '@cadence/shared/schedule/planner';
import type { Account, CreatorInfo, PrivacyLevel } from '@cadence/shared/schemas/account';
import type { Delivery, IntervalUnit, PublishType } from '@cadence/shared/schemas/schedule';

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
