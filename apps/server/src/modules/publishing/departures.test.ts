import { afterEach, describe, expect, it, vi } from 'vitest';
import { createDepartures, UPLOAD_QUIET_MS, UPLOAD_WAIT_CAP_MS } from './departures.ts';

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

  describe('an upload', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it('waits until every init in flight has landed', async () => {
      const clock = exactClock(0);
      const departures = createDepartures(clock);
      const first = await departures.until(clock.dbNow(), 0);
      const second = await departures.until(clock.dbNow(), 1);
      let uploading = false;
      const upload = departures.quiet().then(() => {
        uploading = true;
      });
      first.land();
      // Landing twice counts once: the second init is still in flight.
      first.land();
      await new Promise((resolve) => setImmediate(resolve));
      expect(uploading).toBe(false);
      second.land();
      await upload;
      expect(uploading).toBe(true);
    });

    it(`waits while an init is due to leave within ${UPLOAD_QUIET_MS} ms, until it has landed`, async () => {
      const clock = exactClock(0);
      const departures = createDepartures(clock);
      const events: string[] = [];
      const init = departures.until(clock.dbNow() + UPLOAD_QUIET_MS / 2, 0).then((flight) => {
        events.push('init left');
        return flight;
      });
      const upload = departures.quiet().then(() => events.push('upload'));
      const flight = await init;
      await new Promise((resolve) => setImmediate(resolve));
      expect(events).toEqual(['init left']);
      flight.land();
      await upload;
      expect(events).toEqual(['init left', 'upload']);
      // An init due later than that does not hold an upload back.
      void departures.until(clock.dbNow() + 10 * UPLOAD_QUIET_MS, 0);
      let next = false;
      const nextUpload = departures.quiet().then(() => {
        next = true;
      });
      await Promise.resolve();
      expect(next).toBe(true);
      await nextUpload;
    });

    it(`goes after ${UPLOAD_WAIT_CAP_MS} ms at most, whatever the inits do`, async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
      const clock = exactClock(0);
      const departures = createDepartures(clock);
      // An init that never lands (its answer lost): the upload still goes.
      await departures.until(clock.dbNow(), 0);
      let uploading = false;
      const upload = departures.quiet().then(() => {
        uploading = true;
      });
      await vi.advanceTimersByTimeAsync(UPLOAD_WAIT_CAP_MS - 1);
      expect(uploading).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      await upload;
      expect(uploading).toBe(true);
    });
  });
});
