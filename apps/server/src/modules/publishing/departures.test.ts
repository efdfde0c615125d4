import { describe, expect, it } from 'vitest';
import { createDepartures } from './departures.ts';

/** A database clock `offset` ms ahead of this process's, known exactly; `offset` may be changed. */
function exactClock(offset: number) {
  const clock = {
    offset,
    localWhen: (dbMs: number) => dbMs - clock.offset,
    dbNow: () => performance.now() + clock.offset,
  };
  return clock;
}

describe('departures of confirmed inits', () => {
  it('lets the inits due at one instant leave together, lowest rank first, whatever order they came in', async () => {
    const clock = exactClock(1.7e12);
    const departures = createDepartures(clock);
    const instant = clock.dbNow() + 50;
    const left: { name: string; at: number }[] = [];
    // Their confirmations came back latest rank first.
    const arrivals: [string, number][] = [
      ['a:2', 2],
      ['b:2', 2],
      ['a:1', 1],
      ['b:0', 0],
      ['b:1', 1],
      ['a:0', 0],
    ];
    await Promise.all(
      arrivals.map(([name, rank]) =>
        departures.until(instant, rank).then(() => left.push({ name, at: clock.dbNow() })),
      ),
    );
    expect(left.map(({ name }) => name)).toEqual(['b:0', 'a:0', 'a:1', 'b:1', 'a:2', 'b:2']);
    // Not one before its instant.
    for (const { at } of left) expect(at).toBeGreaterThanOrEqual(instant);
  });

  it('keeps an init whose instant is later waiting when earlier ones leave', async () => {
    const clock = exactClock(-5_000);
    const departures = createDepartures(clock);
    const now = clock.dbNow();
    const left: string[] = [];
    const later = departures.until(now + 120, 0).then(() => left.push('later, rank 0'));
    const sooner = departures.until(now + 30, 3).then(() => left.push('sooner, rank 3'));
    await sooner;
    expect(left).toEqual(['sooner, rank 3']);
    await later;
    expect(left).toEqual(['sooner, rank 3', 'later, rank 0']);
    expect(clock.dbNow()).toBeGreaterThanOrEqual(now + 120);
  });

  it('lets an init whose instant has passed leave at once', async () => {
    const clock = exactClock(0);
    const departures = createDepartures(clock);
    let left = false;
    const leaving = departures.until(clock.dbNow() - 1, 5).then(() => {
      left = true;
    });
    await Promise.resolve();
    expect(left).toBe(true);
    await leaving;
  });

  it('moves its timer earlier when a new reading says the instant comes sooner', async () => {
    // First believed 10 s away (a loose reading); a tighter one says 40 ms.
    const clock = exactClock(0);
    const departures = createDepartures(clock);
    const instant = clock.dbNow() + 40;
    clock.offset = -10_000;
    const first = departures.until(instant, 1);
    clock.offset = 0;
    const started = performance.now();
    await Promise.all([first, departures.until(instant, 0)]);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(clock.dbNow()).toBeGreaterThanOrEqual(instant);
  });
});
