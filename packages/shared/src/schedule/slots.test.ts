import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addDaysToDate,
  isoWeekday,
  localDateOf,
  localTimeOf,
  zonedDateTimeToUtc,
} from './planner.ts';
import { allocateSlots, normalizeSlots, type WeeklySlot } from './slots.ts';

const paris = 'Europe/Paris';
const MINUTE = 60_000;
const weekdays = (times: string[], days = [1, 2, 3, 4, 5]): WeeklySlot[] =>
  days.flatMap((weekday) => times.map((time) => ({ weekday, time })));

describe('allocateSlots', () => {
  it("fills 'Mon–Fri 12:00 and 18:30' in order from now, over the weekend", () => {
    const got = allocateSlots({
      slots: weekdays(['18:30', '12:00']),
      timeZone: paris,
      after: zonedDateTimeToUtc('2025-06-13', '13:00', paris), // a Friday, 13:00
      count: 4,
      taken: [],
    });
    expect(got.map((at) => `${localDateOf(at, paris)} ${localTimeOf(at, paris)}`)).toEqual([
      '2025-06-13 18:30',
      '2025-06-16 12:00',
      '2025-06-16 18:30',
      '2025-06-17 12:00',
    ]);
  });

  it('skips slots that already hold a post, and days at the daily cap', () => {
    const after = zonedDateTimeToUtc('2025-06-16', '08:00', paris); // a Monday
    const got = allocateSlots({
      slots: weekdays(['12:00', '18:30']),
      timeZone: paris,
      after,
      count: 3,
      taken: [zonedDateTimeToUtc('2025-06-16', '12:00', paris)],
      dailyCap: { cap: 2, counts: new Map([['2025-06-17', 2]]) },
    });
    expect(got.map((at) => `${localDateOf(at, paris)} ${localTimeOf(at, paris)}`)).toEqual([
      '2025-06-16 18:30',
      '2025-06-18 12:00',
      '2025-06-18 18:30',
    ]);
  });

  it('keeps local times across DST: a Sunday 02:30 slot in the March gap and the October overlap', () => {
    const slots = [{ weekday: 7, time: '02:30' }];
    const got = allocateSlots({
      slots,
      timeZone: paris,
      after: new Date('2025-03-24T00:00:00Z'),
      count: 2,
      taken: [],
    });
    // 30 March: 02:30 does not exist, 03:30 CEST; 6 April: 02:30 CEST.
    expect(got.map((at) => at.toISOString())).toEqual([
      '2025-03-30T01:30:00.000Z',
      '2025-04-06T00:30:00.000Z',
    ]);
    const autumn = allocateSlots({
      slots,
      timeZone: paris,
      after: new Date('2025-10-20T00:00:00Z'),
      count: 2,
      taken: [],
    });
    // 26 October: 02:30 happens twice, the first (CEST); 2 November: 02:30 CET.
    expect(autumn.map((at) => at.toISOString())).toEqual([
      '2025-10-26T00:30:00.000Z',
      '2025-11-02T01:30:00.000Z',
    ]);
  });

  it('gives nothing without slots, and merges duplicate or malformed ones', () => {
    const base = { timeZone: 'UTC', after: new Date('2025-01-01T00:00:00Z'), taken: [] };
    expect(allocateSlots({ ...base, slots: [], count: 3 })).toEqual([]);
    expect(
      normalizeSlots([
        { weekday: 3, time: '09:00' },
        { weekday: 1, time: '18:00' },
        { weekday: 3, time: '09:00' },
        { weekday: 8, time: '09:00' },
        { weekday: 2, time: '25:00' },
      ]),
    ).toEqual([
      { weekday: 1, time: '18:00' },
      { weekday: 3, time: '09:00' },
    ]);
  });

  // Zones with 60- and 30-minute DST shifts, a southern one whose changes happen at midnight,
  // and two without DST.
  const zones = [
    paris,
    'America/New_York',
    'Australia/Lord_Howe',
    'America/Santiago',
    'UTC',
    'Asia/Kolkata',
  ];
  const timeArb = fc
    .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
    .map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`);
  const slotArb = fc.record({ weekday: fc.integer({ min: 1, max: 7 }), time: timeArb });
  const afterArb = fc
    .integer({ min: Date.UTC(2024, 0, 1), max: Date.UTC(2027, 11, 31) })
    .map((ms) => new Date(ms));

  /** Every slot time from `after` (exclusive) to `until` (inclusive), by brute force over days. */
  function occurrences(slots: WeeklySlot[], timeZone: string, after: Date, until: Date): number[] {
    const found = new Set<number>();
    const last = localDateOf(until, timeZone);
    for (
      let date = addDaysToDate(localDateOf(after, timeZone), -1);
      date <= last;
      date = addDaysToDate(date, 1)
    ) {
      for (const slot of slots) {
        if (slot.weekday !== isoWeekday(date)) continue;
        const at = zonedDateTimeToUtc(date, slot.time, timeZone).getTime();
        if (at > after.getTime() && at <= until.getTime()) found.add(at);
      }
    }
    return [...found].sort((a, b) => a - b);
  }

  it('gives the earliest free slot times, in order, each a real slot time, never a taken one', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...zones),
        fc.array(slotArb, { minLength: 1, maxLength: 8 }),
        afterArb,
        fc.integer({ min: 0, max: 20 }),
        fc.array(fc.integer({ min: 0, max: 40 }), { maxLength: 10 }),
        (timeZone, slots, after, count, takenPicks) => {
          // Taken: some of the slot times the unconstrained allocation would give, and a stray minute.
          const free = allocateSlots({ slots, timeZone, after, count: 41, taken: [] });
          const taken = [
            ...takenPicks.flatMap((pick) => (free[pick] ? [free[pick]] : [])),
            new Date(after.getTime() + 90 * MINUTE),
          ];
          const got = allocateSlots({ slots, timeZone, after, count, taken });
          expect(got).toHaveLength(count);
          const times = got.map((at) => at.getTime());
          times.forEach((time, index) => {
            expect(time).toBeGreaterThan(index === 0 ? after.getTime() : (times[index - 1] ?? 0));
          });
          const takenMinutes = new Set(taken.map((at) => Math.floor(at.getTime() / MINUTE)));
          expect(times.some((time) => takenMinutes.has(Math.floor(time / MINUTE)))).toBe(false);
          const last = got.at(-1);
          if (last === undefined) return;
          // Exactly the free slot times up to the last one given: none skipped, none invented.
          const expected = occurrences(slots, timeZone, after, last).filter(
            (time) => !takenMinutes.has(Math.floor(time / MINUTE)),
          );
          expect(times).toEqual(expected);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('never puts more on a day than the cap leaves', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...zones),
        fc.array(slotArb, { minLength: 1, maxLength: 12 }),
        afterArb,
        fc.integer({ min: 1, max: 30 }),
        fc.integer({ min: 1, max: 3 }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 14 }), fc.integer({ min: 0, max: 4 }))),
        (timeZone, slots, after, count, cap, countPicks) => {
          const today = localDateOf(after, timeZone);
          const counts = new Map(
            countPicks.map(([offset, used]) => [addDaysToDate(today, offset), used]),
          );
          const got = allocateSlots({
            slots,
            timeZone,
            after,
            count,
            taken: [],
            dailyCap: { cap, counts },
          });
          expect(got).toHaveLength(count);
          const perDay = new Map<string, number>();
          for (const at of got) {
            const day = localDateOf(at, timeZone);
            perDay.set(day, (perDay.get(day) ?? 0) + 1);
          }
          for (const [day, added] of perDay) {
            expect((counts.get(day) ?? 0) + added).toBeLessThanOrEqual(cap);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
