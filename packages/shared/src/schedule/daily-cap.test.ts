import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nextDayWithRoom, planDailyCap, sameTimeOn } from './daily-cap.ts';
import { addDaysToDate, localDateOf, localTimeOf, zonedDateTimeToUtc } from './planner.ts';

const paris = 'Europe/Paris';
const at = (date: string, time: string, zone = paris) => zonedDateTimeToUtc(date, time, zone);

describe('nextDayWithRoom', () => {
  it('is the first later day below the cap, or null past the horizon', () => {
    const counts = new Map([
      ['2025-06-11', 15],
      ['2025-06-12', 14],
    ]);
    expect(nextDayWithRoom(counts, '2025-06-10', 15)).toBe('2025-06-12');
    expect(nextDayWithRoom(counts, '2025-06-10', 14)).toBe('2025-06-13');
    expect(nextDayWithRoom(new Map([['2025-06-11', 1]]), '2025-06-10', 1, 1)).toBeNull();
  });
});

describe('planDailyCap', () => {
  it('says which posts exceed the cap on which day and moves each to the next day with room', () => {
    const proposed = ['a', 'b', 'c', 'd'].map((key, index) => ({
      key,
      dueAt: at('2025-06-10', `1${index}:00`),
    }));
    const plan = planDailyCap({
      existing: new Map([
        ['2025-06-10', 13],
        ['2025-06-11', 14],
      ]),
      proposed,
      cap: 15,
      timeZone: paris,
    });
    expect(plan.days).toEqual([
      { date: '2025-06-10', existing: 13, proposed: 4, cap: 15, over: 2 },
    ]);
    // The earliest posts of the day fit; the later ones move, each the same time of day.
    expect(
      plan.overflow.map((over) => [over.key, over.date, over.suggestedDate, over.suggestedDueAt]),
    ).toEqual([
      ['c', '2025-06-10', '2025-06-11', at('2025-06-11', '12:00')],
      ['d', '2025-06-10', '2025-06-12', at('2025-06-12', '13:00')],
    ]);
  });

  it('keeps the wall-clock time when the next day is across the March change', () => {
    const plan = planDailyCap({
      existing: new Map([['2025-03-29', 15]]),
      proposed: [{ key: 1, dueAt: at('2025-03-29', '09:00') }],
      cap: 15,
      timeZone: paris,
    });
    expect(plan.overflow[0]?.suggestedDueAt?.toISOString()).toBe('2025-03-30T07:00:00.000Z');
    expect(localTimeOf(plan.overflow[0]?.suggestedDueAt ?? new Date(0), paris)).toBe('09:00');
  });

  it('reads days in the zone given: the same instants fall on other days in Tokyo', () => {
    const proposed = [{ key: 1, dueAt: new Date('2025-06-10T16:00:00Z') }];
    const existing = new Map([['2025-06-10', 1]]);
    expect(planDailyCap({ existing, proposed, cap: 1, timeZone: paris }).overflow).toHaveLength(1);
    expect(planDailyCap({ existing, proposed, cap: 1, timeZone: 'Asia/Tokyo' }).overflow).toEqual(
      [],
    );
  });

  const zones = [paris, 'America/New_York', 'UTC', 'Australia/Lord_Howe'];
  const dayArb = fc
    .integer({ min: 0, max: 20 })
    .map((offset) => addDaysToDate('2025-03-20', offset));
  const timeArb = fc
    .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
    .map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`);

  it('never overfills a day when every suggestion is followed, and moves only what is over', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...zones),
        fc.integer({ min: 1, max: 5 }),
        fc.array(fc.tuple(dayArb, fc.integer({ min: 0, max: 6 }))),
        fc.array(fc.tuple(dayArb, timeArb), { maxLength: 30 }),
        (timeZone, cap, existingPairs, proposedPairs) => {
          const existing = new Map(existingPairs);
          const proposed = proposedPairs.map(([date, time], key) => ({
            key,
            dueAt: zonedDateTimeToUtc(date, time, timeZone),
          }));
          const plan = planDailyCap({ existing, proposed, cap, timeZone });

          const moved = new Map(plan.overflow.map((over) => [over.key, over]));
          const finalCounts = new Map<string, number>();
          for (const post of proposed) {
            const over = moved.get(post.key);
            const dueAt = over ? over.suggestedDueAt : post.dueAt;
            expect(dueAt).not.toBeNull();
            const day = localDateOf(dueAt ?? new Date(0), timeZone);
            finalCounts.set(day, (finalCounts.get(day) ?? 0) + 1);
            if (over) {
              // Always a later day, at the same time of day unless a DST gap shifted it.
              expect(over.suggestedDate && over.suggestedDate > over.date).toBe(true);
              const wanted = localTimeOf(post.dueAt, timeZone);
              const got = sameTimeOn(post.dueAt, over.suggestedDate ?? '', timeZone);
              expect(over.suggestedDueAt).toEqual(got);
              expect(
                localTimeOf(got, timeZone) >= wanted ||
                  localDateOf(got, timeZone) > (over.suggestedDate ?? ''),
              ).toBe(true);
            }
          }
          // Days this plan adds to stay within the cap (days already over it only keep theirs).
          for (const [day, added] of finalCounts) {
            const before = existing.get(day) ?? 0;
            if (before < cap) expect(before + added).toBeLessThanOrEqual(cap);
            else expect(plan.overflow.every((over) => over.suggestedDate !== day)).toBe(true);
          }
          // Exactly the posts beyond each day's room are over.
          for (const day of plan.days) {
            const room = Math.max(0, cap - day.existing);
            expect(day.over).toBe(Math.max(0, day.proposed - room));
          }
          expect(plan.overflow).toHaveLength(plan.days.reduce((sum, day) => sum + day.over, 0));
        },
      ),
      { numRuns: 300 },
    );
  });
});
