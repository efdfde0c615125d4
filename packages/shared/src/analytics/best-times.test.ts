import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { zonedDateTimeToUtc } from '../schedule/planner.ts';
import {
  analyseBestTimes,
  describeSlot,
  median,
  mostPostedHours,
  nextSlotOccurrence,
  zonedSlot,
  type BestTimeObservation,
} from './best-times.ts';

const PARIS = 'Europe/Paris';

/** A video posted on 2026-03-(2 + day) at `hour`:00 Paris time (2026-03-02 is a Monday). */
function postedAt(day: number, hour: number): number {
  const date = `2026-03-${String(2 + day).padStart(2, '0')}`;
  return zonedDateTimeToUtc(date, `${String(hour).padStart(2, '0')}:00`, PARIS).getTime();
}

/** One video per (day, hour) over the given hours and days, views from `views(day, hour)`. */
function grid(days: number, hours: number[], views: (day: number, hour: number) => number) {
  const observations: BestTimeObservation[] = [];
  for (let day = 0; day < days; day++) {
    for (const hour of hours) {
      observations.push({ postedAt: postedAt(day, hour), views: views(day, hour), basis: '24h' });
    }
  }
  return observations;
}

describe('analyseBestTimes', () => {
  it('says "not enough data" below the threshold and suggests nothing', () => {
    const few = grid(3, [9, 12, 18], () => 100);
    expect(few).toHaveLength(9);
    const result = analyseBestTimes(few, PARIS);
    expect(result).toMatchObject({
      status: 'not_enough_data',
      videosAnalysed: 9,
      minimumVideos: 10,
    });
    expect(result.slots).toEqual([]);
    expect(
      analyseBestTimes(
        grid(4, [9, 12, 18], () => 100),
        PARIS,
      ).status,
    ).toBe('ok');
  });

  it('finds the hours whose videos do best, relative to the median, on the zone’s clock', () => {
    const observations = grid(14, [8, 11, 14, 18, 21], (day, hour) =>
      hour === 18 ? 3000 + day : hour === 11 ? 2000 + day : 1000 + day * 3,
    );
    const result = analyseBestTimes(observations, PARIS);
    expect(result.status).toBe('ok');
    expect(result.slots.map((slot) => slot.hour)).toEqual([18, 11, expect.any(Number)]);
    const best = result.slots[0];
    expect(best?.score).toBeGreaterThan(2);
    // The same videos read on UTC clocks: an hour earlier in winter.
    expect(analyseBestTimes(observations, 'UTC').slots[0]?.hour).toBe(17);
  });

  it('builds 168 cells counting each video once, and knows nothing of hours far from any post', () => {
    const observations = grid(7, [10, 20], () => 500);
    const result = analyseBestTimes(observations, PARIS);
    expect(result.cells).toHaveLength(168);
    expect(result.cells.reduce((sum, cell) => sum + cell.posts, 0)).toBe(14);
    const at = (weekday: number, hour: number) =>
      result.cells.find((cell) => cell.weekday === weekday && cell.hour === hour);
    expect(at(0, 10)?.posts).toBe(1);
    expect(at(0, 3)?.score).toBeNull();
    expect(at(0, 11)?.score).not.toBeNull();
    // More posts behind a cell, more confidence.
    expect(at(0, 10)?.confidence).toBeGreaterThan(at(0, 11)?.confidence ?? 1);
  });

  it('compares settled views only with settled views', () => {
    // A history first seen late (settled, large) and recent posts (24 h, smaller): the best
    // hour of each kind is found, the larger absolute numbers of the history do not win.
    const history = grid(7, [9, 15], (_, hour) => (hour === 9 ? 20_000 : 10_000)).map(
      (item): BestTimeObservation => ({ ...item, basis: 'settled' }),
    );
    const recent = grid(7, [9, 15], (_, hour) => (hour === 15 ? 2000 : 1000)).map((item) => ({
      ...item,
      postedAt: Number(item.postedAt) + 7 * 86_400_000,
    }));
    const result = analyseBestTimes([...history, ...recent], PARIS);
    const score = (hour: number) =>
      result.cells.find((cell) => cell.weekday === 0 && cell.hour === hour)?.score ?? 0;
    expect(score(9)).toBeCloseTo(score(15), 1);
  });

  const observationArbitrary = fc.record({
    postedAt: fc.integer({ min: Date.parse('2025-01-01'), max: Date.parse('2027-01-01') }),
    views: fc.integer({ min: 0, max: 1_000_000 }),
    basis: fc.constantFrom<'24h' | 'settled'>('24h', 'settled'),
  });
  const zones = fc.constantFrom(
    'UTC',
    PARIS,
    'America/New_York',
    'Asia/Kolkata',
    'Pacific/Chatham',
  );

  it('suggests well-spaced, well-backed slots, best first, whatever the videos', () => {
    fc.assert(
      fc.property(fc.array(observationArbitrary, { maxLength: 80 }), zones, (items, zone) => {
        const result = analyseBestTimes(items, zone);
        expect(result.cells).toHaveLength(168);
        expect(result.cells.reduce((sum, cell) => sum + cell.posts, 0)).toBe(items.length);
        for (const cell of result.cells) {
          expect(cell.confidence).toBeGreaterThanOrEqual(0);
          expect(cell.confidence).toBeLessThanOrEqual(1);
          if (cell.score !== null) expect(cell.score).toBeGreaterThan(0);
        }
        expect(result.slots.length).toBeLessThanOrEqual(3);
        if (result.status === 'not_enough_data') expect(result.slots).toEqual([]);
        result.slots.forEach((slot, index) => {
          const previous = result.slots[index - 1];
          if (previous) expect(previous.score).toBeGreaterThanOrEqual(slot.score);
          for (const other of result.slots.slice(index + 1)) {
            const distance = Math.abs(other.hour - slot.hour);
            expect(Math.min(distance, 24 - distance)).toBeGreaterThanOrEqual(2);
          }
        });
      }),
      { numRuns: 150 },
    );
  });

  it('does not depend on the order of the videos', () => {
    fc.assert(
      fc.property(
        fc.array(observationArbitrary, { minLength: 1, maxLength: 40 }),
        fc.integer(),
        (items, seed) => {
          const shuffled = [...items].sort(
            (a, b) => ((a.views * 31 + seed) % 97) - ((b.views * 31 + seed) % 97),
          );
          const a = analyseBestTimes(items, PARIS);
          const b = analyseBestTimes(shuffled, PARIS);
          expect(b.slots.map((slot) => [slot.weekday, slot.hour])).toEqual(
            a.slots.map((slot) => [slot.weekday, slot.hour]),
          );
          b.cells.forEach((cell, index) => {
            const same = a.cells[index];
            if (cell.score === null) expect(same?.score).toBeNull();
            else expect(same?.score).toBeCloseTo(cell.score, 9);
          });
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe('slots in time and in words', () => {
  it('finds the next occurrence strictly after now, on the zone’s clock', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.parse('2025-01-01'), max: Date.parse('2027-12-31') }),
        fc.integer({ min: 0, max: 6 }),
        fc.integer({ min: 0, max: 23 }),
        fc.constantFrom('UTC', PARIS, 'America/New_York', 'Australia/Sydney'),
        (now, weekday, hour, zone) => {
          const next = nextSlotOccurrence({ weekday, hour }, now, zone);
          expect(next.getTime()).toBeGreaterThan(now);
          expect(next.getTime() - now).toBeLessThanOrEqual(8 * 86_400_000);
          const seen = zonedSlot(next, zone);
          // A slot inside a spring-forward gap lands an hour later, as the scheduler does.
          expect(seen.weekday).toBe(weekday);
          expect([hour, (hour + 1) % 24]).toContain(seen.hour);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('names a slot in French and in English', () => {
    expect(describeSlot({ weekday: 1, hour: 18 }, 'fr-FR')).toBe('mardi 18:00');
    expect(describeSlot({ weekday: 6, hour: 9 }, 'en-GB')).toBe('Sunday 09:00');
  });

  it('the naive baseline picks the most-posted hours', () => {
    const times = [
      ...Array.from({ length: 5 }, (_, day) => postedAt(day, 20)),
      ...Array.from({ length: 3 }, (_, day) => postedAt(day, 8)),
      ...Array.from({ length: 4 }, (_, day) => postedAt(day, 21)),
      postedAt(0, 13),
    ];
    expect(mostPostedHours(times, PARIS).map((slot) => slot.hour)).toEqual([20, 8, 13]);
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 2, 3])).toBe(2.5);
  });
});
