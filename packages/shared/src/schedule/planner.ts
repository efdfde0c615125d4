// Pure scheduling domain: turns a schedule request into UTC due times, one per video.
// No Node or DOM imports: the server plans for real, the browser previews the same plan.

import { formatterFor } from './time-zones.ts';

export { isValidTimeZone } from './time-zones.ts';

export type IntervalUnit = 'minutes' | 'hours' | 'days';
export type PublishType = 'immediate' | 'scheduled' | 'spaced';

/** A civil (calendar) date in some time zone, month 1–12. */
interface CivilDate {
  year: number;
  month: number;
  day: number;
}

interface WallTime {
  hour: number;
  minute: number;
}

interface ZonedParts extends CivilDate, WallTime {}

export interface PlannedPost {
  mediaId: string;
  dueAt: Date;
  /** Whole minutes added to the batch's slot by "randomize ±1h" (0 when not randomized). */
  jitterMinutes: number;
}

export interface SpacedPlanInput {
  /** Videos in the order the user chose; the plan keeps it. */
  mediaIds: readonly string[];
  /** Videos per batch; reduced to the number of videos when larger, at least 1. */
  count: number;
  /** Gap between consecutive batches, in `unit`. */
  value: number;
  unit: IntervalUnit;
  /** 'HH:MM' wall-clock time of the first batch in `timeZone`. */
  startTime: string;
  /**
   * 'yyyy-MM-dd' day of the first batch in `timeZone`; omitted: today if `startTime` is still
   * ahead, else tomorrow. Slots that would fall before `now` are moved to `now`.
   */
  startDate?: string | undefined;
  timeZone: string;
  now: Date;
  randomize: boolean;
  /** Uniform in [0, 1); defaults to Math.random. */
  random?: () => number;
}

export interface SpacedInterval {
  count: number;
  value: number;
  unit: IntervalUnit;
  startTime: string;
  startDate?: string | undefined;
  randomizeTime: boolean;
}

/** The fields of a schedule request the planner needs (structurally the API schema's output). */
export interface ScheduleRequest {
  mediaIds: readonly string[];
  publishType: PublishType;
  timeZone: string;
  date?: string | undefined;
  time?: string | undefined;
  spacedInterval?: SpacedInterval | undefined;
}

export type PlanErrorCode =
  | 'date_in_past'
  | 'missing_date_time'
  | 'missing_spaced_interval'
  | 'start_in_past'
  | 'beyond_supported_dates';

export type PlanResult = { ok: true; posts: PlannedPost[] } | { ok: false; code: PlanErrorCode };

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;
/** Randomize moves a post by at most this many minutes either way (the product's "±1h"). */
export const MAX_JITTER_MINUTES = 60;

const TIME_PATTERN = /^([01]\d|2[0-3]):([0-5]\d)$/;
const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Parses 'HH:MM' (24 h); null when malformed. */
export function parseTime(time: string): WallTime | null {
  const match = TIME_PATTERN.exec(time);
  if (!match) return null;
  return { hour: Number(match[1]), minute: Number(match[2]) };
}

/**
 * The dates a person may give Cadence, 'yyyy-MM-dd' from 1970-01-01 to 9998-12-31, and the
 * instants, from 1970-01-01T00:00Z until 9999-12-31T00:00Z. A time zone's offset, the day after a
 * range, or a spaced plan's slots added on the server then stay in the four-digit years that ISO
 * 8601, JavaScript's `toISOString` and PostgreSQL's timestamps all write alike (year 10000 is
 * `+010000` to JavaScript, which PostgreSQL does not read).
 */
export const FIRST_SUPPORTED_DATE = '1970-01-01';
export const LAST_SUPPORTED_DATE = '9998-12-31';
export const SUPPORTED_INSTANTS_END_MS = Date.UTC(9999, 11, 31);

/** A date that exists and lies within the supported years (see FIRST_SUPPORTED_DATE). */
export function isSupportedDate(date: string): boolean {
  // 'yyyy-MM-dd' strings order as their dates do.
  return parseDate(date) !== null && date >= FIRST_SUPPORTED_DATE && date <= LAST_SUPPORTED_DATE;
}

/** An instant (ms since the epoch) within the supported years (see FIRST_SUPPORTED_DATE). */
export function isSupportedInstant(instantMs: number): boolean {
  return instantMs >= 0 && instantMs < SUPPORTED_INSTANTS_END_MS;
}

/** Parses 'yyyy-MM-dd' and rejects dates that do not exist (2025-02-30); null when invalid. */
export function parseDate(date: string): CivilDate | null {
  const match = DATE_PATTERN.exec(date);
  if (!match) return null;
  const civil = { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) };
  const roundTrip = new Date(Date.UTC(civil.year, civil.month - 1, civil.day));
  const exists =
    roundTrip.getUTCFullYear() === civil.year &&
    roundTrip.getUTCMonth() === civil.month - 1 &&
    roundTrip.getUTCDate() === civil.day;
  return exists ? civil : null;
}

function zonedParts(instantMs: number, timeZone: string): ZonedParts & { second: number } {
  const values: Record<string, number> = {};
  for (const part of formatterFor(timeZone).formatToParts(new Date(instantMs))) {
    if (part.type !== 'literal') values[part.type] = Number(part.value);
  }
  return {
    year: values['year'] ?? 0,
    month: values['month'] ?? 1,
    day: values['day'] ?? 1,
    hour: values['hour'] ?? 0,
    minute: values['minute'] ?? 0,
    second: values['second'] ?? 0,
  };
}

/** The zone's offset from UTC at that instant, in ms (Paris in summer: +2 h). */
function offsetAt(instantMs: number, timeZone: string): number {
  const wholeSecond = Math.floor(instantMs / 1000) * 1000;
  const p = zonedParts(wholeSecond, timeZone);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - wholeSecond;
}

function sameWallClock(instantMs: number, wall: ZonedParts, timeZone: string): boolean {
  const p = zonedParts(instantMs, timeZone);
  return (
    p.year === wall.year &&
    p.month === wall.month &&
    p.day === wall.day &&
    p.hour === wall.hour &&
    p.minute === wall.minute
  );
}

/**
 * UTC instant of a wall-clock time in a zone. In an overlap (clocks going back) the first
 * occurrence wins; in a gap (clocks going forward) the time moves forward by the gap, so
 * 02:30 on Paris's spring-forward night is 03:30 — a post is never planned before the user's pick.
 */
function wallClockToUtcMs(wall: ZonedParts, timeZone: string): number {
  const asIfUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute);
  // Offsets a day either side bracket any single transition near this wall time.
  const offsetBefore = offsetAt(asIfUtc - DAY_MS, timeZone);
  const offsetAfter = offsetAt(asIfUtc + DAY_MS, timeZone);
  const candidates = [asIfUtc - offsetBefore, asIfUtc - offsetAfter]
    .filter((instant) => sameWallClock(instant, wall, timeZone))
    .sort((a, b) => a - b);
  const first = candidates[0];
  if (first !== undefined) return first;
  // Gap: read the wall time with the offset in force before the jump, which lands after it.
  return asIfUtc - offsetBefore;
}

function addDays(date: CivilDate, days: number): CivilDate {
  const shifted = new Date(Date.UTC(date.year, date.month - 1, date.day + days));
  return {
    year: shifted.getUTCFullYear(),
    month: shifted.getUTCMonth() + 1,
    day: shifted.getUTCDate(),
  };
}

function formatCivilDate(date: CivilDate): string {
  const pad = (value: number, width: number) => String(value).padStart(width, '0');
  return `${pad(date.year, 4)}-${pad(date.month, 2)}-${pad(date.day, 2)}`;
}

function requireDate(date: string): CivilDate {
  const civil = parseDate(date);
  if (!civil) throw new RangeError(`Invalid date '${date}', expected yyyy-MM-dd`);
  return civil;
}

/** The 'yyyy-MM-dd' day an instant falls on in `timeZone` (the calendar's and the cap's day). */
export function localDateOf(instant: Date, timeZone: string): string {
  return formatCivilDate(zonedParts(instant.getTime(), timeZone));
}

/** The 'HH:MM' an instant shows on the clocks of `timeZone`. */
export function localTimeOf(instant: Date, timeZone: string): string {
  const parts = zonedParts(instant.getTime(), timeZone);
  return `${String(parts.hour).padStart(2, '0')}:${String(parts.minute).padStart(2, '0')}`;
}

/** 'yyyy-MM-dd' plus `days` calendar days (negative goes back). Throws RangeError on a bad date. */
export function addDaysToDate(date: string, days: number): string {
  return formatCivilDate(addDays(requireDate(date), days));
}

/** ISO weekday of a 'yyyy-MM-dd' date: Monday 1 … Sunday 7. */
export function isoWeekday(date: string): number {
  const civil = requireDate(date);
  const weekday = new Date(Date.UTC(civil.year, civil.month - 1, civil.day)).getUTCDay();
  return weekday === 0 ? 7 : weekday;
}

/**
 * Items grouped by the day they fall on in `timeZone` ('Aujourd'hui', 'Demain', then dates), in
 * the items' order; a DST change inside a day never splits or merges days.
 */
export function groupByLocalDay<TItem>(
  items: readonly TItem[],
  instantOf: (item: TItem) => Date,
  timeZone: string,
): { date: string; items: TItem[] }[] {
  const groups: { date: string; items: TItem[] }[] = [];
  const byDate = new Map<string, TItem[]>();
  for (const item of items) {
    const date = localDateOf(instantOf(item), timeZone);
    let group = byDate.get(date);
    if (!group) {
      group = [];
      byDate.set(date, group);
      groups.push({ date, items: group });
    }
    group.push(item);
  }
  return groups;
}

function requireTime(time: string): WallTime {
  const wall = parseTime(time);
  if (!wall) throw new RangeError(`Invalid time '${time}', expected HH:MM`);
  return wall;
}

/**
 * UTC instant of `date` ('yyyy-MM-dd') at `time` ('HH:MM') in the IANA `timeZone`.
 * Gap times move forward by the gap, overlap times take the first occurrence.
 * Throws RangeError for a malformed date/time or unknown zone.
 */
export function zonedDateTimeToUtc(date: string, time: string, timeZone: string): Date {
  return new Date(wallClockToUtcMs({ ...requireDate(date), ...requireTime(time) }, timeZone));
}

/** The civil date (in the zone) of the next occurrence of `wall`, and that occurrence. */
function nextOccurrenceOn(
  wall: WallTime,
  now: Date,
  timeZone: string,
): { date: CivilDate; instantMs: number } {
  const todayParts = zonedParts(now.getTime(), timeZone);
  const today: CivilDate = { year: todayParts.year, month: todayParts.month, day: todayParts.day };
  const todayAt = wallClockToUtcMs({ ...today, ...wall }, timeZone);
  if (todayAt >= now.getTime()) return { date: today, instantMs: todayAt };
  const tomorrow = addDays(today, 1);
  return { date: tomorrow, instantMs: wallClockToUtcMs({ ...tomorrow, ...wall }, timeZone) };
}

function startOn(
  date: CivilDate,
  wall: WallTime,
  timeZone: string,
): { date: CivilDate; instantMs: number } {
  return { date, instantMs: wallClockToUtcMs({ ...date, ...wall }, timeZone) };
}

/**
 * Next UTC instant showing `startTime` ('HH:MM') on the clocks of `timeZone`: today if it is
 * still ahead (or exactly now), else tomorrow. DST-correct; throws RangeError on bad input.
 */
export function nextOccurrence(startTime: string, now: Date, timeZone: string): Date {
  return new Date(nextOccurrenceOn(requireTime(startTime), now, timeZone).instantMs);
}

/** Uniform whole minutes in [−60, +60]. */
function drawJitterMinutes(random: () => number): number {
  const span = 2 * MAX_JITTER_MINUTES + 1;
  const drawn = Math.floor(random() * span) - MAX_JITTER_MINUTES;
  // Guards against a random() that returns exactly 1 or a little more.
  return Math.min(MAX_JITTER_MINUTES, Math.max(-MAX_JITTER_MINUTES, drawn));
}

/**
 * Spaced plan: videos in order, cut into batches of `count`; batch k is due at
 * start + k × value unit, where start = `startDate` at `startTime`, or nextOccurrence(startTime)
 * without a start date. 'days' are calendar days in the zone (same wall-clock time across DST);
 * minutes and hours are exact durations. No slot is before `now` (a start already passed moves
 * to `now`; planSchedule refuses one a whole minute old). With `randomize`, each post moves by a
 * uniform whole number of minutes in [−60, +60], raised when needed so it is never before `now`.
 */
export function planSpaced(input: SpacedPlanInput): PlannedPost[] {
  const { mediaIds, unit, timeZone, now, randomize } = input;
  if (mediaIds.length === 0) return [];
  const count = Math.max(1, Math.min(Math.floor(input.count), mediaIds.length));
  const value = Math.max(1, Math.floor(input.value));
  const random = input.random ?? Math.random;
  const startWall = requireTime(input.startTime);
  const start =
    input.startDate === undefined
      ? nextOccurrenceOn(startWall, now, timeZone)
      : startOn(requireDate(input.startDate), startWall, timeZone);

  const slotOfBatch = (batch: number): number => {
    switch (unit) {
      case 'minutes':
        return start.instantMs + batch * value * MINUTE_MS;
      case 'hours':
        return start.instantMs + batch * value * HOUR_MS;
      case 'days':
        return wallClockToUtcMs({ ...addDays(start.date, batch * value), ...startWall }, timeZone);
    }
  };

  return mediaIds.map((mediaId, index) => {
    const slotMs = Math.max(slotOfBatch(Math.floor(index / count)), now.getTime());
    if (!randomize) return { mediaId, dueAt: new Date(slotMs), jitterMinutes: 0 };
    // Slots are never before now, so the lowest allowed jitter is within [−60, 0].
    const lowestAllowed = Math.ceil((now.getTime() - slotMs) / MINUTE_MS);
    // `|| 0` turns Math.ceil's −0 into 0 so equality checks and JSON stay unsurprising.
    const jitterMinutes = Math.max(drawJitterMinutes(random), lowestAllowed) || 0;
    return { mediaId, dueAt: new Date(slotMs + jitterMinutes * MINUTE_MS), jitterMinutes };
  });
}

/**
 * Plans a schedule request: immediate → all due `now`; scheduled → all due at date+time in the
 * request's zone (a minute that has entirely passed is 'date_in_past'; the current minute means
 * now); spaced → planSpaced. `random` only matters for spaced plans with randomizeTime.
 */
export function planSchedule(
  request: ScheduleRequest,
  now: Date,
  random: () => number = Math.random,
): PlanResult {
  const plan = planRequest(request, now, random);
  // Dates are bounded where they come in, but a spaced plan's slots (50 videos, 1,000 days
  // apart) can still run past the last supported year.
  if (plan.ok && !plan.posts.every((post) => isSupportedInstant(post.dueAt.getTime()))) {
    return { ok: false, code: 'beyond_supported_dates' };
  }
  return plan;
}

function planRequest(request: ScheduleRequest, now: Date, random: () => number): PlanResult {
  const { mediaIds, timeZone } = request;
  switch (request.publishType) {
    case 'immediate':
      return {
        ok: true,
        posts: mediaIds.map((mediaId) => ({ mediaId, dueAt: new Date(now), jitterMinutes: 0 })),
      };
    case 'scheduled': {
      if (request.date === undefined || request.time === undefined) {
        return { ok: false, code: 'missing_date_time' };
      }
      const dueMs = zonedDateTimeToUtc(request.date, request.time, timeZone).getTime();
      // The form picks whole minutes: choosing the current minute is "now", not the past.
      if (dueMs + MINUTE_MS <= now.getTime()) return { ok: false, code: 'date_in_past' };
      const dueAt = new Date(Math.max(dueMs, now.getTime()));
      return {
        ok: true,
        posts: mediaIds.map((mediaId) => ({ mediaId, dueAt: new Date(dueAt), jitterMinutes: 0 })),
      };
    }
    case 'spaced': {
      const interval = request.spacedInterval;
      if (!interval) return { ok: false, code: 'missing_spaced_interval' };
      if (interval.startDate !== undefined) {
        const startMs = zonedDateTimeToUtc(interval.startDate, interval.startTime, timeZone);
        // As for a scheduled time: the current minute is "now", a minute wholly past is refused.
        if (startMs.getTime() + MINUTE_MS <= now.getTime())
          return { ok: false, code: 'start_in_past' };
      }
      return {
        ok: true,
        posts: planSpaced({
          mediaIds,
          count: interval.count,
          value: interval.value,
          unit: interval.unit,
          startTime: interval.startTime,
          startDate: interval.startDate,
          timeZone,
          now,
          randomize: interval.randomizeTime,
          random,
        }),
      };
    }
  }
}

/** One post of a preview: its slot, and the window randomize may move it within. */
export interface PreviewedPost {
  mediaId: string;
  /** The slot (before any randomization). */
  dueAt: Date;
  /** Earliest and latest time the post may get: the slot itself unless randomized (±60 min, never before now). */
  earliest: Date;
  latest: Date;
}

export type PreviewResult =
  { ok: true; posts: PreviewedPost[] } | { ok: false; code: PlanErrorCode };

/**
 * Every slot planSchedule would give the request, without drawing the random offsets: what the
 * form shows before submitting (date, time, ±1h window when randomized).
 */
export function previewSchedule(request: ScheduleRequest, now: Date): PreviewResult {
  // A draw of exactly the middle of [−60, +60] is an offset of 0: the bare slot.
  const plan = planSchedule(request, now, () => 0.5);
  if (!plan.ok) return plan;
  const randomized =
    request.publishType === 'spaced' && request.spacedInterval?.randomizeTime === true;
  return {
    ok: true,
    posts: plan.posts.map(({ mediaId, dueAt }) => ({
      mediaId,
      dueAt,
      earliest: randomized
        ? new Date(Math.max(now.getTime(), dueAt.getTime() - MAX_JITTER_MINUTES * MINUTE_MS))
        : dueAt,
      latest: randomized ? new Date(dueAt.getTime() + MAX_JITTER_MINUTES * MINUTE_MS) : dueAt,
    })),
  };
}
