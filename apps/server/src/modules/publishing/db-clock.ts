/**
 * What one process knows of the database's clock (decision 039).
 *
 * The publisher sends at instants read on the database's clock (a post's due time, the moment a
 * slot frees) and stamps TikTok's answers on it, while it waits and measures on its own clock
 * (performance.now()). A statement that reads the database's clock gives a reading: taken after
 * the local instant the statement left and before the one its answer arrived. So at any local
 * instant the database's clock lies between two bounds, as tight as the quickest round trip seen.
 *
 * Each statement's own reading, used alone, was as loose as that statement was slow: under a
 * burst, a claim or a reservation answered 0.1-0.4 s after the database read its clock, and the
 * init waited that long past its instant. The clock keeps the tightest reading of all instead.
 * The two clocks' rates may differ (NTP slews each), so a reading's bounds widen with its age by
 * CLOCK_DRIFT: a reading a minute old is off by 60 ms at most.
 */

/**
 * How far the two clocks' rates may differ: 1 ms a second, twice the largest slew Linux's
 * adjtime applies (500 ppm). Only a step of either clock (not a slew) can break the bounds, as it
 * would break any reading's.
 */
export const CLOCK_DRIFT = 1e-3;

export interface DbClock {
  /**
   * A reading of the database's clock (epoch ms), taken after the local instant `sentAt` and
   * before `receivedAt` (both performance.now()).
   */
  observe(dbMs: number, sentAt: number, receivedAt: number): void;
  /**
   * The earliest local instant (performance.now()) from which the database's clock reads `dbMs`
   * or later. Only after a reading (observe).
   */
  localWhen(dbMs: number): number;
  /** The latest the database's clock can read at the local instant `localMs`. Only after a reading. */
  latestAt(localMs: number): number;
}

/** A bound's reading: the database's clock minus the local one (`offset`), at the local instant `at`. */
interface Reading {
  offset: number;
  at: number;
}

export function createDbClock(): DbClock {
  // The database's clock at the local instant x is at least x + low.offset - CLOCK_DRIFT·|x - low.at|
  // and at most x + high.offset + CLOCK_DRIFT·|x - high.at|. Of two readings, the one kept is the
  // tighter at every later instant (instants before both readings are never asked for a send).
  let low: Reading | null = null;
  let high: Reading | null = null;
  const readingOf = (bound: Reading | null): Reading => {
    if (bound === null) throw new Error('No reading of the database clock yet');
    return bound;
  };
  return {
    observe(dbMs, sentAt, receivedAt) {
      // Read before it arrived: the database's clock was at least dbMs at receivedAt.
      const lowOffset = dbMs - receivedAt;
      if (
        low === null ||
        lowOffset + CLOCK_DRIFT * receivedAt > low.offset + CLOCK_DRIFT * low.at
      ) {
        low = { offset: lowOffset, at: receivedAt };
      }
      // Read after it left: the database's clock was at most dbMs at sentAt.
      const highOffset = dbMs - sentAt;
      if (
        high === null ||
        highOffset - CLOCK_DRIFT * sentAt < high.offset - CLOCK_DRIFT * high.at
      ) {
        high = { offset: highOffset, at: sentAt };
      }
    },
    localWhen(dbMs) {
      const { offset, at } = readingOf(low);
      // Solve x + offset - CLOCK_DRIFT·|x - at| = dbMs for x, on the side of `at` it falls.
      const rated = dbMs - offset;
      return rated >= at
        ? at + (rated - at) / (1 - CLOCK_DRIFT)
        : at - (at - rated) / (1 + CLOCK_DRIFT);
    },
    latestAt(localMs) {
      const { offset, at } = readingOf(high);
      return localMs + offset + CLOCK_DRIFT * Math.abs(localMs - at);
    },
  };
}
