// Posting slots (Buffer's queue): an account's recurring weekly times, and the allocator that puts
// videos in the next free ones. Pure: the server allocates for real, the browser can preview.
import {
  addDaysToDate,
  isoWeekday,
  localDateOf,
  parseTime,
  zonedDateTimeToUtc,
} from './planner.ts';

/** ISO weekday (Monday 1 … Sunday 7) and 'HH:MM' wall-clock time, in the user's time zone. */
export interface WeeklySlot {
  weekday: number;
  time: string;
}

export interface AllocateSlotsInput {
  slots: readonly WeeklySlot[];
  timeZone: string;
  /** Only slots strictly after this instant are given (usually now). */
  after: Date;
  /** How many slots are wanted (one per video). */
  count: number;
  /** Due times of the account's posts: a slot at one of these minutes is taken. */
  taken: readonly Date[];
  /**
   * TikTok's daily cap: a day whose count (`counts`, plus what this call allocates) reached `cap`
   * gets no more posts. Omitted: no cap.
   */
  dailyCap?: { cap: number; counts: ReadonlyMap<string, number> };
  /** Days searched (default 366). */
  horizonDays?: number;
}

const MINUTE_MS = 60_000;

/** The slots sorted by weekday then time, without duplicates or malformed times. */
export function normalizeSlots(slots: readonly WeeklySlot[]): WeeklySlot[] {
  const seen = new Set<string>();
  return slots
    .filter((slot) => Number.isInteger(slot.weekday) && slot.weekday >= 1 && slot.weekday <= 7)
    .filter((slot) => parseTime(slot.time) !== null)
    .filter((slot) => {
      const key = `${slot.weekday} ${slot.time}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .sort((a, b) => a.weekday - b.weekday || a.time.localeCompare(b.time));
}

/**
 * The next `count` free slot times after `after`, in time order: each the UTC instant of a weekly
 * slot's wall-clock time on a day in `timeZone` (a time inside a spring-forward gap moves forward
 * by the gap, a repeated autumn time takes its first occurrence), skipping slots already holding
 * one of `taken` and days at the cap. Fewer than `count` only when the horizon runs out (or there
 * are no slots).
 */
export function allocateSlots(input: AllocateSlotsInput): Date[] {
  const { timeZone, after, count } = input;
  const slots = normalizeSlots(input.slots);
  if (slots.length === 0 || count <= 0) return [];
  const horizon = input.horizonDays ?? 366;
  const takenMinutes = new Set(input.taken.map((at) => Math.floor(at.getTime() / MINUTE_MS)));
  const allocatedPerDay = new Map<string, number>();
  const chosen: Date[] = [];
  const chosenMinutes = new Set<number>();
  const firstDate = localDateOf(after, timeZone);

  for (let offset = 0; offset <= horizon && chosen.length < count; offset++) {
    const date = addDaysToDate(firstDate, offset);
    const weekday = isoWeekday(date);
    const candidates = slots
      .filter((slot) => slot.weekday === weekday)
      .map((slot) => zonedDateTimeToUtc(date, slot.time, timeZone))
      // Two slots can meet in a DST gap (02:30 becomes 03:30): order by the instant they got.
      .sort((a, b) => a.getTime() - b.getTime());
    for (const instant of candidates) {
      if (chosen.length >= count) break;
      const minute = Math.floor(instant.getTime() / MINUTE_MS);
      if (instant.getTime() <= after.getTime()) continue;
      if (takenMinutes.has(minute) || chosenMinutes.has(minute)) continue;
      if (input.dailyCap) {
        // The day a post counts for is the one it falls on, which a gap shift may not change.
        const day = localDateOf(instant, timeZone);
        const used = (input.dailyCap.counts.get(day) ?? 0) + (allocatedPerDay.get(day) ?? 0);
        if (used >= input.dailyCap.cap) continue;
        allocatedPerDay.set(day, (allocatedPerDay.get(day) ?? 0) + 1);
      }
      chosen.push(instant);
      chosenMinutes.add(minute);
    }
  }
  return chosen;
}
