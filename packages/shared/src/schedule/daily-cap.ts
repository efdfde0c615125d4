// TikTok's daily post cap, planned around: pure functions over per-day counts of one account.
// A "day" is a calendar day in the user's time zone ('yyyy-MM-dd'). TikTok's cap is shared with
// every other app posting to the account, so Cadence's counts (its own posts) are an estimate.
import { addDaysToDate, localDateOf, localTimeOf, zonedDateTimeToUtc } from './planner.ts';

/** TikTok's "typically around 15" direct posts per creator per day (tiktok-api.md §5). */
export const DEFAULT_DAILY_POST_CAP = 15;
/** How far ahead the planners look for a day with room (a year). */
export const DEFAULT_HORIZON_DAYS = 366;

/** Posts an account already has, per day: 'yyyy-MM-dd' → count. */
export type DayCounts = ReadonlyMap<string, number>;

/**
 * The first day strictly after `afterDate` whose count is below `cap`, or null when none is within
 * `horizonDays` (default a year).
 */
export function nextDayWithRoom(
  counts: DayCounts,
  afterDate: string,
  cap: number,
  horizonDays = DEFAULT_HORIZON_DAYS,
): string | null {
  for (let offset = 1; offset <= horizonDays; offset++) {
    const date = addDaysToDate(afterDate, offset);
    if ((counts.get(date) ?? 0) < cap) return date;
  }
  return null;
}

/** The same wall-clock time as `instant`, on `date`, in `timeZone` (DST-correct). */
export function sameTimeOn(instant: Date, date: string, timeZone: string): Date {
  return zonedDateTimeToUtc(date, localTimeOf(instant, timeZone), timeZone);
}

export interface ProposedPost<TKey> {
  key: TKey;
  dueAt: Date;
}

export interface DailyCapInput<TKey> {
  /** What the account already has per day (not counting the proposed posts). */
  existing: DayCounts;
  proposed: readonly ProposedPost<TKey>[];
  cap: number;
  timeZone: string;
  /** Days after a full day searched for room (default a year). */
  horizonDays?: number;
}

/** One day the proposed posts fall on. */
export interface CapDay {
  date: string;
  existing: number;
  proposed: number;
  cap: number;
  /** Proposed posts beyond the cap on that day (0 when everything fits). */
  over: number;
}

/** A proposed post past the day's cap, and where it could go instead. */
export interface CapOverflow<TKey> {
  key: TKey;
  dueAt: Date;
  date: string;
  /** The same time of day on the next day with room; null when none within the horizon. */
  suggestedDueAt: Date | null;
  suggestedDate: string | null;
}

export interface DailyCapPlan<TKey> {
  /** The days of the proposed posts, in date order. */
  days: CapDay[];
  /** Posts that exceed their day's cap, in due order, each with its suggested move. */
  overflow: CapOverflow<TKey>[];
}

/**
 * Which proposed posts exceed the cap on which day, and the next day with room for each. Posts
 * fill a day in due order (the earliest ones fit); the moved posts then take the next days with
 * room in turn, so following every suggestion never overfills a day either.
 */
export function planDailyCap<TKey>(input: DailyCapInput<TKey>): DailyCapPlan<TKey> {
  const { existing, cap, timeZone } = input;
  const horizon = input.horizonDays ?? DEFAULT_HORIZON_DAYS;
  const ordered = input.proposed
    .map((post, index) => ({ post, index, date: localDateOf(post.dueAt, timeZone) }))
    .sort((a, b) => a.post.dueAt.getTime() - b.post.dueAt.getTime() || a.index - b.index);

  const used = new Map(existing);
  const days = new Map<string, CapDay>();
  const over: typeof ordered = [];
  for (const item of ordered) {
    const day = days.get(item.date) ?? {
      date: item.date,
      existing: existing.get(item.date) ?? 0,
      proposed: 0,
      cap,
      over: 0,
    };
    days.set(item.date, day);
    day.proposed += 1;
    const count = used.get(item.date) ?? 0;
    if (count < cap) {
      used.set(item.date, count + 1);
    } else {
      day.over += 1;
      over.push(item);
    }
  }

  const overflow = over.map(({ post, date }): CapOverflow<TKey> => {
    const suggestedDate = nextDayWithRoom(used, date, cap, horizon);
    if (suggestedDate === null) {
      return { key: post.key, dueAt: post.dueAt, date, suggestedDueAt: null, suggestedDate };
    }
    used.set(suggestedDate, (used.get(suggestedDate) ?? 0) + 1);
    return {
      key: post.key,
      dueAt: post.dueAt,
      date,
      suggestedDueAt: sameTimeOn(post.dueAt, suggestedDate, timeZone),
      suggestedDate,
    };
  });

  return { days: [...days.values()].sort((a, b) => a.date.localeCompare(b.date)), overflow };
}
