import { EventEmitter } from 'node:events';
import { sql, type Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from '../../db/schema.ts';
import type { RunPause } from './publisher-context.ts';
import { createLimiter } from './run-limiter.ts';
import { createWakeListener, WAKE_CHANNEL } from './wake-listener.ts';
import { PREPARE_LEAD_MS } from './run-leads.ts';

/**
 * Precise wake-ups for the publisher (docs/decisions/039-publishing-precision.md). pg-boss polls
 * its queue (every 0.5 s here, a second or two late under load) and stays the durable wake-up;
 * on top of it each worker process keeps a timer for every post due within the horizon, armed
 * from three sources: its own wake-ups, PostgreSQL NOTIFY from any other process (the web server
 * scheduling or editing a post), and a scan of the table at start and every minute. A timer that
 * fires runs the same `advance` a job would: duplicates are harmless, the row's lease decides.
 * A pending post's due time is armed PREPARE_LEAD_MS early: its run prepares everything and waits
 * for the due instant to send the video init (publisher.ts).
 */

/** Timers are kept for wake-ups at most this far ahead; later ones are armed by the scan. */
export const WAKE_HORIZON_MS = 3 * 60_000;

/** A wake-up for a post at `at`, armed `leadMs` early (default PREPARE_LEAD_MS: a due time). */
type WakeListener = (postId: string, at: Date, leadMs?: number) => void;

/** In-process wake-ups, one bus per database (tests open several in one process). */
const buses = new WeakMap<object, EventEmitter>();
function busFor(db: object): EventEmitter {
  let bus = buses.get(db);
  if (!bus) {
    bus = new EventEmitter();
    bus.setMaxListeners(0);
    buses.set(db, bus);
  }
  return bus;
}

/**
 * Tells the publishers a post's wake-up: this process's at once, others' through NOTIFY (on
 * PostgreSQL). A failed NOTIFY is only logged: the pg-boss job and the scan still wake the post.
 */
export function createWakeAnnouncer(
  database: { db: Kysely<Database>; kind: 'pglite' | 'postgres' },
  logger?: Pick<Logger, 'warn'>,
) {
  const bus = busFor(database.db);
  return async (postId: string, at: Date): Promise<void> => {
    bus.emit('wake', postId, at);
    if (database.kind !== 'postgres') return;
    try {
      await sql`select pg_notify(${WAKE_CHANNEL}, ${`${postId} ${at.toISOString()}`})`.execute(
        database.db,
      );
    } catch (error) {
      logger?.warn({ err: error, postId }, 'publish wake-up not announced: the queue wakes it');
    }
  };
}

export interface WakeTimerOptions {
  db: Kysely<Database>;
  /** postgres://… to LISTEN on (a connection of its own); null on PGlite (one process). */
  connectionString: string | null;
  /** Posts whose wake-up is within the horizon (repository.wakingWithin). */
  wakingWithin: (
    horizonMs: number,
  ) => Promise<{ id: string; wake_at: Date; status: string; due_at: Date }[]>;
  /** What a timer runs (publisher.advance), with how it may let its place go while it waits. */
  run: (postId: string, pause: RunPause) => Promise<unknown>;
  /** Runs at once from timers (the process's publish concurrency). */
  concurrency: number;
  /**
   * Prepared runs resuming at their due instant may take the count up to this (default
   * `concurrency`): on PostgreSQL they go out at once, their statements queued on the pool.
   */
  resumeConcurrency?: number;
  logger: Pick<Logger, 'warn' | 'info'>;
  /**
   * This process's id and the live worker processes' (worker_processes): announced and scanned
   * wake-ups are split between them, each post to one process (its own wake-ups stay here).
   * Without them, this process arms every post.
   */
  processId?: string;
  liveProcesses?: () => Promise<string[]>;
  /** How often the live processes are read again besides a join's NOTIFY (MEMBERSHIP_REFRESH_MS). */
  membershipRefreshMs?: number;
  /** First wait before connecting LISTEN again after a failure (doubles, up to 30 s; tests shorten it). */
  listenRetryMs?: number;
}

/**
 * How often the list of live worker processes is read again (a process died, or joined while
 * this one's LISTEN was down; a join is heard at once through MEMBERS_CHANNEL).
 */
export const MEMBERSHIP_REFRESH_MS = 5_000;

/** Which of `n` processes a post's wake-ups go to: a hash of its id. */
export function shareOf(postId: string, n: number): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < postId.length; index++) {
    hash = Math.imul(hash ^ postId.charCodeAt(index), 0x01000193) >>> 0;
  }
  return hash % n;
}

/**
 * The live worker processes this one splits the posts with, and which posts are its own to
 * wake: one process per post, so that two do not run its queries at once (decision 039). A post
 * whose process died or is not known yet is woken by its pg-boss job (JOB_FALLBACK_MS later)
 * until the next refresh.
 */
function createMembership(options: Pick<WakeTimerOptions, 'liveProcesses' | 'processId'>) {
  /** The live processes, sorted (null: unknown, every post is this process's). */
  let members: string[] | null = null;
  return {
    refresh: async (): Promise<void> => {
      if (!options.liveProcesses || options.processId === undefined) return;
      const live = [...(await options.liveProcesses())].sort();
      members = live.includes(options.processId) ? live : null;
    },
    /** Whether a post announced or scanned is this process's to wake. */
    mine: (postId: string): boolean =>
      members === null || members[shareOf(postId, members.length)] === options.processId,
    members: (): string[] | null => members,
  };
}

/** The timers of one worker process; `stop` clears them and closes the LISTEN connection. */
export async function startWakeTimers(options: WakeTimerOptions) {
  const { db, run, logger } = options;
  /** By `postId@time`: one timer per distinct wake-up of a post (an earlier one may be stale). */
  const timers = new Map<string, NodeJS.Timeout>();
  const limit = createLimiter(
    options.concurrency,
    Math.max(options.concurrency, options.resumeConcurrency ?? options.concurrency),
  );
  let stopped = false;

  const fire = (key: string, postId: string) => {
    timers.delete(key);
    limit((pause) => (stopped ? Promise.resolve() : run(postId, pause))).catch((error: unknown) =>
      logger.warn({ err: error, postId }, 'timed publish wake-up failed: the queue retries'),
    );
  };

  const { refresh: refreshMembers, mine, members } = createMembership(options);

  /**
   * Arms a timer for the post's wake-up at `at`, whichever process it falls to; `leadMs` before
   * it when `at` is a pending post's due time (its run prepares, then waits).
   */
  const armHere = (postId: string, at: Date, leadMs = 0) => {
    if (stopped) return;
    const fireAt = at.getTime() - leadMs;
    const delayMs = fireAt - Date.now();
    if (delayMs > WAKE_HORIZON_MS) return;
    const key = `${postId}@${fireAt}`;
    if (timers.has(key)) return;
    const timer = setTimeout(() => fire(key, postId), Math.max(0, delayMs));
    timer.unref();
    timers.set(key, timer);
  };
  /**
   * A due time announced by whoever scheduled, edited or reopened the post (the schedule
   * service): its process arms it, PREPARE_LEAD_MS early. Or a wake-up another process handed
   * over (`leadMs`: its own lead).
   */
  const arm: WakeListener = (postId, at, leadMs = PREPARE_LEAD_MS) => {
    if (mine(postId)) armHere(postId, at, leadMs);
  };
  /**
   * A wake-up this process's run computed for a post that is another process's: handed to that
   * process, so that one process wakes the post (decision 039). A run
   * started by the post's pg-boss job (in any process) and paced arms its next wake-up; armed here,
   * it ran beside the post's own process's, both reserved one of the account's init slots, and
   * another post of the account was paced behind the one given back.
   */
  const handOver = (postId: string, at: Date, leadMs: number) => {
    if (stopped || at.getTime() - leadMs - Date.now() > WAKE_HORIZON_MS) return;
    // Processes sharing this database object (tests) hear it on the bus; others through NOTIFY.
    bus.emit('wake', postId, at, leadMs);
    if (options.connectionString === null) return;
    sql`select pg_notify(${WAKE_CHANNEL}, ${`${postId} ${at.toISOString()} ${leadMs}`})`
      .execute(db)
      .catch((error: unknown) =>
        logger.warn({ err: error, postId }, 'publish wake-up not handed over: the queue wakes it'),
      );
  };

  /** Arms the posts whose wake-up falls within the horizon (start, and every minute). */
  const scan = async () => {
    await refreshMembers();
    const rows = await options.wakingWithin(WAKE_HORIZON_MS);
    let armed = 0;
    for (const row of rows) {
      if (!mine(row.id)) continue;
      // A pending post woken at its due time prepares early; any other wake-up (a paced or
      // retried post, a status check) fires at its time.
      const due = row.status === 'pending' && row.wake_at.getTime() === row.due_at.getTime();
      armHere(row.id, row.wake_at, due ? PREPARE_LEAD_MS : 0);
      armed += 1;
    }
    return armed;
  };

  const bus = busFor(db);
  bus.on('wake', arm);

  const membersFailed = (error: unknown) =>
    logger.warn({ err: error }, 'live worker processes not read: keeping the last list');
  const scanFailed = (error: unknown) =>
    logger.warn({ err: error }, 'publish wake-up scan failed: the queue wakes the posts');
  const listener = createWakeListener({
    connectionString: options.connectionString,
    ...(options.processId !== undefined && { processId: options.processId }),
    ...(options.listenRetryMs !== undefined && { listenRetryMs: options.listenRetryMs }),
    logger,
    onWake: arm,
    onJoin: () => void refreshMembers().catch(membersFailed),
    // Connected: a scan that fails is not a lost connection (retrying would leave it open).
    onReconnect: () => void scan().catch(scanFailed),
  });
  await listener.start();
  const armed = await scan();
  if (armed > 0) logger.info({ armed }, 'publish wake-up timers armed');
  // Posts scheduled long ago come within the horizon: every process looks each minute.
  const rescan = setInterval(() => {
    scan().catch(scanFailed);
  }, WAKE_HORIZON_MS / 3);
  rescan.unref();
  // Processes that joined or died: their share of the posts moves within seconds.
  const membership = setInterval(() => {
    refreshMembers().catch(membersFailed);
  }, options.membershipRefreshMs ?? MEMBERSHIP_REFRESH_MS);
  membership.unref();

  return {
    /**
     * A wake-up for a post this process ran (only it knows of it): armed here if the post is
     * this process's, else handed over to the process whose it is.
     */
    arm(postId: string, at: Date, leadMs = 0) {
      if (mine(postId)) armHere(postId, at, leadMs);
      else handOver(postId, at, leadMs);
    },
    scan,
    /** Whether the LISTEN connection is up (tests). */
    listening: listener.listening,
    /** The live processes this one splits the posts with (null: every post is its own; tests). */
    members,
    async stop() {
      stopped = true;
      clearInterval(rescan);
      clearInterval(membership);
      bus.off('wake', arm);
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
      await listener.stop();
    },
  };
}
