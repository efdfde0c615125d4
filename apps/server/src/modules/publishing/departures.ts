import type { DbClock } from './db-clock.ts';

/**
 * Where a process's confirmed inits wait for the instant they may leave, an instant read on the
 * database's clock (a post's due time, the moment its slot frees), and leave in order of priority
 * (decision 039, addendum "session 29").
 *
 * At a due instant hundreds of inits are ready together. Each waiting on a timer of its own left
 * in the order of the timers' instants, which each run had computed from the reading of its own
 * statements: in no useful order. But TikTok answers a burst one request after another, and an
 * account's next window waits on its earliest inits (InitSlot.rank). Here one timer serves them
 * all: when it fires, every init whose instant has come leaves, lowest priority value first (then
 * earliest instant, then arrival), so the ranks every account's next window waits on are sent,
 * and answered, before the ranks nothing waits on yet.
 */
export interface Departures {
  /**
   * Resolves once the database's clock reads `dbMs` or later (by the clock's bound): at once if it
   * already does, else with the others whose instant came, in order of `priority`.
   */
  until(dbMs: number, priority: number): Promise<void>;
}

interface Waiting {
  dbMs: number;
  priority: number;
  seq: number;
  leave: () => void;
}

export function createDepartures(clock: Pick<DbClock, 'localWhen'>): Departures {
  let waiting: Waiting[] = [];
  let seq = 0;
  let timer: NodeJS.Timeout | null = null;
  /** The local instant the timer is set for. */
  let armedFor = Number.POSITIVE_INFINITY;
  /** The earliest instant waited for, on the database's clock. */
  let earliest = Number.POSITIVE_INFINITY;

  /** Sets the timer for the earliest instant waited for (each reading may bring it nearer). */
  function arm() {
    if (waiting.length === 0) return;
    const at = clock.localWhen(earliest);
    if (timer !== null && at >= armedFor) return;
    if (timer !== null) clearTimeout(timer);
    armedFor = at;
    timer = setTimeout(release, Math.max(0, Math.ceil(at - performance.now())));
  }

  function release() {
    timer = null;
    armedFor = Number.POSITIVE_INFINITY;
    const now = performance.now();
    const leaving: Waiting[] = [];
    const staying: Waiting[] = [];
    earliest = Number.POSITIVE_INFINITY;
    for (const entry of waiting) {
      if (clock.localWhen(entry.dbMs) <= now) leaving.push(entry);
      else {
        staying.push(entry);
        earliest = Math.min(earliest, entry.dbMs);
      }
    }
    waiting = staying;
    leaving.sort((a, b) => a.priority - b.priority || a.dbMs - b.dbMs || a.seq - b.seq);
    for (const entry of leaving) entry.leave();
    arm();
  }

  return {
    until(dbMs, priority) {
      if (clock.localWhen(dbMs) <= performance.now()) return Promise.resolve();
      return new Promise<void>((leave) => {
        waiting.push({ dbMs, priority, seq: seq++, leave });
        earliest = Math.min(earliest, dbMs);
        arm();
      });
    },
  };
}
