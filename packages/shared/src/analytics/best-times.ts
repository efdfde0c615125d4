// Best times to post, learned from a creator's own videos (issue 14, decision record 024).
// Pure: no Node or DOM imports; the server computes it, the web formats it, the bench scores it.
import type { IntlLocale } from '../locale.ts';
import { zonedDateTimeToUtc } from '../schedule/planner.ts';
import { zonedFormatter } from '../schedule/time-zones.ts';

/** One published video as the analysis sees it. */
export interface BestTimeObservation {
  /** When it was posted (epoch ms or Date). */
  postedAt: number | Date;
  /** Its views: at 24 h of age (`basis: '24h'`), or settled, for videos first seen older. */
  views: number;
  basis: '24h' | 'settled';
}

export interface BestTimeCell {
  /** 0 = Monday … 6 = Sunday, on the wall clock of the analysis' time zone. */
  weekday: number;
  hour: number;
  /** Videos posted in this very cell. */
  posts: number;
  /** Expected views relative to the account's median (1 = typical); null with no evidence at that hour. */
  score: number | null;
  /** 0–1: how much of the score rests on posts at (or next to) this hour and in this cell. */
  confidence: number;
}

export interface BestTimeSlot {
  weekday: number;
  hour: number;
  score: number;
  confidence: number;
}

export interface BestTimesResult {
  status: 'ok' | 'not_enough_data';
  videosAnalysed: number;
  minimumVideos: number;
  /** 168 cells, Monday 00:00 first, hour by hour. */
  cells: BestTimeCell[];
  /** Best first, at least `slotSpacingHours` apart; empty with not enough data. */
  slots: BestTimeSlot[];
}

export interface BestTimesOptions {
  /** Below this many videos, the status is 'not_enough_data' and no slot is suggested (default 10). */
  minimumVideos?: number;
  /** How many slots to suggest (default 3). */
  slotCount?: number;
  /** Suggested slots are at least this many hours apart, on any days (default 2). */
  slotSpacingHours?: number;
  /** A slot's hour needs at least this many videos of its own (default 2). */
  minimumSlotEvidence?: number;
}

/** An hour without videos borrows half the effect of the hours either side (display only). */
const NEIGHBOUR_WEIGHT = 0.5;
/** Shrinkage (in posts) of the hour, weekday and cell effects toward "typical". */
const HOUR_PRIOR = 1;
const WEEKDAY_PRIOR = 4;
const CELL_PRIOR = 3;

const weekdayNumbers: Record<string, number> = {
  Mon: 0,
  Tue: 1,
  Wed: 2,
  Thu: 3,
  Fri: 4,
  Sat: 5,
  Sun: 6,
};
const slotParts: Intl.DateTimeFormatOptions = {
  weekday: 'short',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  hourCycle: 'h23',
};

/** Weekday (0 = Monday), hour and civil date of an instant on the clocks of `timeZone`. */
export function zonedSlot(
  instant: number | Date,
  timeZone: string,
): { weekday: number; hour: number; date: string } {
  const parts: Record<string, string> = {};
  for (const part of zonedFormatter(timeZone, slotParts).formatToParts(instant))
    parts[part.type] = part.value;
  return {
    weekday: weekdayNumbers[parts['weekday'] ?? 'Mon'] ?? 0,
    hour: Number(parts['hour'] ?? 0) % 24,
    date: `${parts['year']}-${parts['month']}-${parts['day']}`,
  };
}

/** The middle value (mean of the two middle ones for an even count); 0 for none. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

function hourDistance(a: number, b: number): number {
  const distance = Math.abs(a - b) % 24;
  return Math.min(distance, 24 - distance);
}

function kernel(a: number, b: number): number {
  const distance = hourDistance(a, b);
  return distance === 0 ? 1 : distance === 1 ? NEIGHBOUR_WEIGHT : 0;
}

/** A video's weekday and hour, and its views relative to the median of its kind, in log space. */
interface LiftPoint {
  weekday: number;
  hour: number;
  lift: number;
}

/** The hour effects: pooled over weekdays, and what backs each hour. */
interface HourEffects {
  /** Videos posted at each hour, any day. */
  postsAt: number[];
  /** Each hour's effect from its own videos alone (what slots are chosen by). */
  ownEffect: number[];
  /** Each hour's effect as shown: its own, or borrowed from the hours either side. */
  hourEffect: number[];
  /** How many videos back each hour, those of the hours either side counted at half. */
  hourEvidence: number[];
}

/** The usable observations (finite, non-negative views) as lift points on `timeZone`'s clocks. */
function liftPoints(
  observations: readonly BestTimeObservation[],
  timeZone: string,
): { usable: number; points: LiftPoint[] } {
  const usable = observations.filter((item) => Number.isFinite(item.views) && item.views >= 0);
  const medians = {
    '24h': median(usable.filter((item) => item.basis === '24h').map((item) => item.views)),
    settled: median(usable.filter((item) => item.basis === 'settled').map((item) => item.views)),
  };
  const points = usable.map((item) => {
    const { weekday, hour } = zonedSlot(item.postedAt, timeZone);
    return { weekday, hour, lift: Math.log((item.views + 1) / (medians[item.basis] + 1)) };
  });
  return { usable: usable.length, points };
}

/**
 * Hour effect, pooled over weekdays: the hour's own videos, shrunk toward typical. An hour
 * without videos borrows from the hours either side (shown, never suggested).
 */
function hourEffects(points: readonly LiftPoint[]): HourEffects {
  const postsAt = new Array<number>(24).fill(0);
  const liftAt = new Array<number>(24).fill(0);
  for (const point of points) {
    postsAt[point.hour] = (postsAt[point.hour] ?? 0) + 1;
    liftAt[point.hour] = (liftAt[point.hour] ?? 0) + point.lift;
  }
  const ownEffect = postsAt.map((posts, hour) => (liftAt[hour] ?? 0) / (posts + HOUR_PRIOR));
  const hourEvidence: number[] = [];
  const hourEffect = ownEffect.map((own, hour) => {
    let evidence = 0;
    let borrowed = 0;
    for (let other = 0; other < 24; other++) {
      const w = kernel(hour, other) * (postsAt[other] ?? 0);
      evidence += w;
      if (other !== hour) borrowed += w * (ownEffect[other] ?? 0);
    }
    hourEvidence.push(evidence);
    if ((postsAt[hour] ?? 0) > 0) return own;
    return evidence === 0 ? 0 : (NEIGHBOUR_WEIGHT * borrowed) / evidence;
  });
  return { postsAt, ownEffect, hourEffect, hourEvidence };
}

/** Weekday effect: what the hour effect leaves unexplained on that day, shrunk toward typical. */
function weekdayEffects(points: readonly LiftPoint[], hourEffect: readonly number[]): number[] {
  return Array.from({ length: 7 }, (_, weekday) => {
    const residuals = points
      .filter((point) => point.weekday === weekday)
      .map((point) => point.lift - (hourEffect[point.hour] ?? 0));
    return residuals.reduce((sum, value) => sum + value, 0) / (residuals.length + WEEKDAY_PRIOR);
  });
}

/** The 168 cells, Monday 00:00 first: hour + weekday effects, plus the cell's own residual. */
function heatmapCells(
  points: readonly LiftPoint[],
  hours: HourEffects,
  weekdayEffect: readonly number[],
): BestTimeCell[] {
  const byCell = new Map<number, LiftPoint[]>();
  for (const point of points) {
    const key = point.weekday * 24 + point.hour;
    byCell.set(key, [...(byCell.get(key) ?? []), point]);
  }
  const cells: BestTimeCell[] = [];
  for (let weekday = 0; weekday < 7; weekday++) {
    for (let hour = 0; hour < 24; hour++) {
      const own = byCell.get(weekday * 24 + hour) ?? [];
      const base = (hours.hourEffect[hour] ?? 0) + (weekdayEffect[weekday] ?? 0);
      const residual =
        own.reduce((sum, point) => sum + point.lift - base, 0) / (own.length + CELL_PRIOR);
      const evidence = hours.hourEvidence[hour] ?? 0;
      cells.push({
        weekday,
        hour,
        posts: own.length,
        score: evidence === 0 ? null : Math.exp(base + residual),
        confidence:
          (evidence / (evidence + HOUR_PRIOR + 2)) *
          (0.75 + 0.25 * (own.length / (own.length + 1))),
      });
    }
  }
  return cells;
}

/**
 * Slots: the best hours first (their own videos only, at least `minimumEvidence` of them),
 * spaced apart; each on its best day.
 */
function chooseSlots(
  cells: readonly BestTimeCell[],
  { postsAt, ownEffect }: HourEffects,
  {
    slotCount,
    spacing,
    minimumEvidence,
  }: { slotCount: number; spacing: number; minimumEvidence: number },
): BestTimeSlot[] {
  const slots: BestTimeSlot[] = [];
  const hours = ownEffect
    .map((effect, hour) => ({ hour, effect }))
    .filter(({ hour }) => (postsAt[hour] ?? 0) >= minimumEvidence)
    .sort((a, b) => b.effect - a.effect || (postsAt[b.hour] ?? 0) - (postsAt[a.hour] ?? 0));
  for (const { hour } of hours) {
    if (slots.length >= slotCount) break;
    if (slots.some((slot) => hourDistance(slot.hour, hour) < spacing)) continue;
    const atHour = cells.filter(
      (cell): cell is BestTimeCell & { score: number } => cell.hour === hour && cell.score !== null,
    );
    const best = atHour.sort(
      (a, b) => b.score - a.score || b.posts - a.posts || a.weekday - b.weekday,
    )[0];
    if (best) {
      slots.push({
        weekday: best.weekday,
        hour,
        score: best.score,
        confidence: best.confidence,
      });
    }
  }
  // Chosen by hour, shown best first by the score of their day.
  return slots.sort((a, b) => b.score - a.score);
}

/**
 * A weekday × hour heatmap of how the creator's audience responds: each video's views (at 24 h,
 * or settled for a history first seen older) relative to the median of its kind, in log space,
 * explained as hour + weekday + cell effects, each shrunk toward "typical" by how few videos back
 * it. Slots are the best hours by their own videos, at least 2 hours apart, each on its best day.
 * Defaults: 10 videos minimum, 3 slots, 2 videos at a slot's hour.
 */
export function analyseBestTimes(
  observations: readonly BestTimeObservation[],
  timeZone: string,
  options: BestTimesOptions = {},
): BestTimesResult {
  const minimumVideos = options.minimumVideos ?? 10;
  const { usable, points } = liftPoints(observations, timeZone);
  const hours = hourEffects(points);
  const cells = heatmapCells(points, hours, weekdayEffects(points, hours.hourEffect));
  const status = usable >= minimumVideos ? 'ok' : 'not_enough_data';
  const slots =
    status === 'ok'
      ? chooseSlots(cells, hours, {
          slotCount: options.slotCount ?? 3,
          spacing: options.slotSpacingHours ?? 2,
          minimumEvidence: options.minimumSlotEvidence ?? 2,
        })
      : [];
  return { status, videosAnalysed: usable, minimumVideos, cells, slots };
}

/**
 * The naive answer the benchmark compares with: the hours the creator posted at most, as slots
 * (on each hour's most-posted weekday), at least `spacingHours` apart.
 */
export function mostPostedHours(
  postedAt: readonly (number | Date)[],
  timeZone: string,
  count = 3,
  spacingHours = 2,
): { weekday: number; hour: number; posts: number }[] {
  const cells = new Map<string, { weekday: number; hour: number; posts: number }>();
  const perHour = new Array<number>(24).fill(0);
  for (const instant of postedAt) {
    const { weekday, hour } = zonedSlot(instant, timeZone);
    perHour[hour] = (perHour[hour] ?? 0) + 1;
    const key = `${weekday}-${hour}`;
    const cell = cells.get(key) ?? { weekday, hour, posts: 0 };
    cell.posts += 1;
    cells.set(key, cell);
  }
  const hours = perHour
    .map((posts, hour) => ({ hour, posts }))
    .filter((entry) => entry.posts > 0)
    .sort((a, b) => b.posts - a.posts || a.hour - b.hour);
  const chosen: { weekday: number; hour: number; posts: number }[] = [];
  for (const { hour, posts } of hours) {
    if (chosen.length >= count) break;
    if (chosen.some((slot) => hourDistance(slot.hour, hour) < spacingHours)) continue;
    const best = [...cells.values()]
      .filter((cell) => cell.hour === hour)
      .sort((a, b) => b.posts - a.posts || a.weekday - b.weekday)[0];
    chosen.push({ weekday: best?.weekday ?? 0, hour, posts });
  }
  return chosen;
}

function addDays(date: string, days: number): string {
  const ms = Date.parse(`${date}T00:00:00Z`) + days * 86_400_000;
  return new Date(ms).toISOString().slice(0, 10);
}

/** The next instant (strictly after `now`) showing `weekday` `hour`:00 on the clocks of `timeZone`. */
export function nextSlotOccurrence(
  slot: { weekday: number; hour: number },
  now: number | Date,
  timeZone: string,
): Date {
  const nowMs = typeof now === 'number' ? now : now.getTime();
  const today = zonedSlot(nowMs, timeZone).date;
  const time = `${String(slot.hour).padStart(2, '0')}:00`;
  for (let offset = 0; offset <= 8; offset++) {
    const date = addDays(today, offset);
    const weekday = (new Date(`${date}T12:00:00Z`).getUTCDay() + 6) % 7;
    if (weekday !== slot.weekday) continue;
    const instant = zonedDateTimeToUtc(date, time, timeZone);
    if (instant.getTime() > nowMs) return instant;
  }
  // Unreachable: a weekday comes back within 7 days, and the 8th covers today's passed slot.
  throw new RangeError('no next occurrence');
}

/** The wall-clock date ('yyyy-MM-dd') and time ('HH:MM') of an instant in `timeZone`. */
export function wallClock(instant: Date, timeZone: string): { date: string; time: string } {
  const { date, hour } = zonedSlot(instant, timeZone);
  const minute = new Intl.DateTimeFormat('en-US', { timeZone, minute: '2-digit' })
    .formatToParts(instant)
    .find((part) => part.type === 'minute')?.value;
  return {
    date,
    time: `${String(hour).padStart(2, '0')}:${String(Number(minute ?? 0)).padStart(2, '0')}`,
  };
}

/** 'mardi 18:00' / 'Tuesday 18:00': a slot in words, in `locale`. */
export function describeSlot(slot: { weekday: number; hour: number }, locale: IntlLocale): string {
  // 2024-01-01 was a Monday.
  const day = new Date(Date.UTC(2024, 0, 1 + slot.weekday, 12));
  const weekday = new Intl.DateTimeFormat(locale, { weekday: 'long', timeZone: 'UTC' }).format(day);
  return `${weekday} ${String(slot.hour).padStart(2, '0')}:00`;
}
