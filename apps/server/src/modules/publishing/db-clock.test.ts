import { describe, expect, it } from 'vitest';
import { CLOCK_DRIFT, createDbClock } from './db-clock.ts';

/**
 * A database whose clock reads `offset` ms past the local one and runs `rate` times as fast, and
 * statements to it: each reads the database's clock somewhere between leaving and arriving back.
 */
function simulatedDatabase(offset: number, rate = 1) {
  const dbAt = (local: number) => local * rate + offset;
  return {
    dbAt,
    /** A statement that left at `sentAt`, took `roundTrip` ms, read the clock at `readAfter` of it. */
    statement(sentAt: number, roundTrip: number, readAfter = 0.5) {
      return { dbMs: dbAt(sentAt + roundTrip * readAfter), sentAt, receivedAt: sentAt + roundTrip };
    },
  };
}

describe("the database's clock as one process knows it", () => {
  it('keeps the quickest round trip: a slow statement after it does not loosen the bounds', () => {
    const db = simulatedDatabase(1.7e12);
    const clock = createDbClock();
    const quick = db.statement(1_000, 2);
    clock.observe(quick.dbMs, quick.sentAt, quick.receivedAt);
    // Under a burst, a statement answered 400 ms after it read the clock.
    const slow = db.statement(1_010, 800);
    clock.observe(slow.dbMs, slow.sentAt, slow.receivedAt);
    const due = db.dbAt(5_000);
    // The init may leave within the quick statement's round trip (and the drift) of its instant,
    // not 400 ms after it as the slow statement alone would say.
    expect(clock.localWhen(due)).toBeGreaterThanOrEqual(5_000);
    expect(clock.localWhen(due)).toBeLessThan(5_000 + 2 + 4_000 * CLOCK_DRIFT * 1.01);
    expect(clock.latestAt(5_000)).toBeGreaterThanOrEqual(due);
    expect(clock.latestAt(5_000)).toBeLessThan(due + 2 + 4_000 * CLOCK_DRIFT * 1.01);
  });

  it('takes a tighter reading over an older one', () => {
    const db = simulatedDatabase(-250);
    const clock = createDbClock();
    const loose = db.statement(0, 100);
    clock.observe(loose.dbMs, loose.sentAt, loose.receivedAt);
    const looseWhen = clock.localWhen(db.dbAt(2_000));
    const tight = db.statement(1_000, 1);
    clock.observe(tight.dbMs, tight.sentAt, tight.receivedAt);
    expect(clock.localWhen(db.dbAt(2_000))).toBeLessThan(looseWhen - 40);
    expect(clock.localWhen(db.dbAt(2_000))).toBeGreaterThanOrEqual(2_000);
  });

  it.each([
    ['runs faster', 1 + CLOCK_DRIFT / 2],
    ['runs slower', 1 - CLOCK_DRIFT / 2],
    ['agrees', 1],
  ])(
    'never says a send instant has come before it has, nor stamps early, when the database’s clock %s',
    (_case, rate) => {
      const db = simulatedDatabase(3.3e11, rate);
      const clock = createDbClock();
      // Readings over two minutes, each somewhere in a round trip of 0-300 ms.
      let seed = 7;
      const random = () => {
        seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
        return seed / 2 ** 31;
      };
      for (let sentAt = 0; sentAt < 120_000; sentAt += 500) {
        const reading = db.statement(sentAt, random() * 300, random());
        clock.observe(reading.dbMs, reading.sentAt, reading.receivedAt);
        // Instants from now to a minute ahead (a paced post waits up to a window).
        for (const ahead of [0, 1, 1_000, 20_000, 61_000]) {
          const instant = db.dbAt(sentAt + ahead);
          expect(db.dbAt(clock.localWhen(instant))).toBeGreaterThanOrEqual(instant - 1e-6);
          expect(clock.latestAt(sentAt + ahead)).toBeGreaterThanOrEqual(instant - 1e-6);
        }
      }
    },
  );

  it('has nothing to say before its first reading', () => {
    const clock = createDbClock();
    expect(() => clock.localWhen(0)).toThrow(/No reading/);
    expect(() => clock.latestAt(0)).toThrow(/No reading/);
  });
});
