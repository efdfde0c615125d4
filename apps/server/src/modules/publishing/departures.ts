import type { DbClock } from './db-clock.ts';

/**
 * Where a process's confirmed inits wait for the instant they may leave, an instant read on the
 * database's clock (a post's due time, the moment its slot frees), and leave in order of priority
 * (decision 039).
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
   * already does, else with the others whose instant came, in order of `priority`. The init is in
   * flight from then until its flight's `land()` (its answer, or its failure).
   */
  until(dbMs: number, priority: number): Promise<Flight>;
  /**
   * Resolves once no init of this process is in flight and none leaves within UPLOAD_QUIET_MS, or
   * after UPLOAD_WAIT_CAP_MS at most: an upload waits for it (see UPLOAD_QUIET_MS).
   */
  quiet(): Promise<void>;
}

/** An init that left: `land()` once it is answered or has failed (more calls do nothing). */
export interface Flight {
  land(): void;
}

/**
 * An upload starts once this process's inits have all been answered and none is due to leave
 * within this long. Uploads have the hour of their URL, inits are counted by TikTok to the
 * millisecond: in a burst (hundreds of inits at one instant, or a window's paced inits a few
 * milliseconds apart), the uploads that followed each answer took the process's event loop and
 * TikTok's attention from the inits still queued.
 */
export const UPLOAD_QUIET_MS = 250;
/** An upload waits for a quiet moment at most this long: a stream of inits never starves it. */
export const UPLOAD_WAIT_CAP_MS = 5_000;

interface Waiting {
  dbMs: number;
  priority: number;
  seq: number;
  leave: (flight: Flight) => void;
}

export function createDepartures(clock: Pick<DbClock, 'localWhen'>): Departures {
  let waiting: Waiting[] = [];
  let seq = 0;
  let timer: NodeJS.Timeout | null = null;
  /** The local instant the timer is set for. */
  let armedFor = Number.POSITIVE_INFINITY;
  /** The earliest instant waited for, on the database's clock. */
  let earliest = Number.POSITIVE_INFINITY;
  /** Inits that left and are not answered yet. */
  let inFlight = 0;
  /** Uploads waiting for a quiet moment. */
  const hushed = new Set<() => void>();

  const isQuiet = () =>
    inFlight === 0 &&
    (waiting.length === 0 || clock.localWhen(earliest) - performance.now() > UPLOAD_QUIET_MS);
  /** Lets the waiting uploads go if this is a quiet moment (an init landed, or others left). */
  function hush() {
    if (hushed.size === 0 || !isQuiet()) return;
    for (const go of [...hushed]) go();
  }
  function takeOff(): Flight {
    inFlight += 1;
    let landed = false;
    return {
      land() {
        if (landed) return;
        landed = true;
        inFlight -= 1;
        hush();
      },
    };
  }

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
    // In flight from now: counted before any of them runs, so no upload slips in first.
    for (const entry of leaving) entry.leave(takeOff());
    arm();
    // The next departure may be far enough now for a quiet moment (once these land).
    hush();
  }

  return {
    until(dbMs, priority) {
      if (clock.localWhen(dbMs) <= performance.now()) return Promise.resolve(takeOff());
      return new Promise<Flight>((leave) => {
        waiting.push({ dbMs, priority, seq: seq++, leave });
        earliest = Math.min(earliest, dbMs);
        arm();
      });
    },
    quiet() {
      if (isQuiet()) return Promise.resolve();
      return new Promise<void>((done) => {
        const go = () => {
          clearTimeout(cap);
          hushed.delete(go);
          done();
        };
        const cap = setTimeout(go, UPLOAD_WAIT_CAP_MS);
        hushed.add(go);
      });
    },
  };
}
