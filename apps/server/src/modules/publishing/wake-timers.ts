import { EventEmitter } from 'node:events';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { Database } from '../../db/schema.ts';
import type { RunPause } from './publisher-context.ts';
import { PREPARE_LEAD_MS } from './repository.ts';

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

/**
 * The NOTIFY channel; the payload is `postId wakeAtISO`, or `postId wakeAtISO leadMs` for a
 * wake-up handed to the post's process by another (its lead: how long before `wakeAt` it fires).
 */
export const WAKE_CHANNEL = 'cadence_publish_wake';
/**
 * A worker process joined (its payload: its id): the others read the live processes again at
 * once, instead of at their next refresh (MEMBERSHIP_REFRESH_MS).
 */
export const MEMBERS_CHANNEL = 'cadence_publish_members';

/**
 * A NOTIFY payload, split at its spaces: the post, when it is due, and maybe its lead (anyone
 * with the database can NOTIFY: at most PREPARE_LEAD_MS).
 */
const wakeNotice = z.union([
  z.tuple([z.uuid(), z.iso.datetime()]),
  z.tuple([z.uuid(), z.iso.datetime(), z.coerce.number().int().min(0).max(PREPARE_LEAD_MS)]),
]);

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

/**
 * At most `limit` runs at once; the rest wait in order. A run that only waits (a prepared post
 * before its due time) lets its place go (`idle`) and takes one back (`resume`) before any run
 * that has not started, within `resumeLimit`: at the due instant the prepared posts, whose
 * confirmation and init are all that is left, go first. Once its init is answered, such a run
 * goes to the back of the queue for its upload (`requeue`), so that all inits leave before the
 * uploads that follow them.
 */
function createLimiter(limit: number, resumeLimit: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  const resuming: (() => void)[] = [];
  const next = () => {
    if (running < resumeLimit && resuming.length > 0) resuming.shift()?.();
    else if (running < limit) waiting.shift()?.();
  };
  const take = async (queue: (() => void)[], bound: number) => {
    if (running >= bound) await new Promise<void>((go) => queue.push(go));
    running += 1;
  };
  return async <TResult>(task: (pause: RunPause) => Promise<TResult>): Promise<TResult> => {
    await take(waiting, limit);
    let holding = true;
    const idle = () => {
      if (!holding) return;
      holding = false;
      running -= 1;
      next();
    };
    const pause: RunPause = {
      idle,
      async resume() {
        if (holding) return;
        await take(resuming, resumeLimit);
        holding = true;
      },
      async requeue() {
        idle();
        await take(waiting, limit);
        holding = true;
      },
    };
    try {
      return await task(pause);
    } finally {
      if (holding) {
        running -= 1;
        next();
      }
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
/** The longest wait between two attempts to connect the LISTEN connection. */
const LISTEN_RETRY_CAP_MS = 30_000;

/** Which of `n` processes a post's wake-ups go to: a hash of its id. */
export function shareOf(postId: string, n: number): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < postId.length; index++) {
    hash = Math.imul(hash ^ postId.charCodeAt(index), 0x01000193) >>> 0;
  }
  return hash % n;
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

  /** The live processes, sorted (null: unknown, every post is this process's). */
  let members: string[] | null = null;
  const refreshMembers = async () => {
    if (!options.liveProcesses || options.processId === undefined) return;
    const live = [...(await options.liveProcesses())].sort();
    members = live.includes(options.processId) ? live : null;
  };
  /**
   * Whether a post announced or scanned is this process's to wake: one process per post, so
   * that two do not run its queries at once (decision 039). A post whose process died or is not
   * known yet is woken by its pg-boss job (JOB_FALLBACK_MS later) until the next refresh.
   */
  const mine = (postId: string) =>
    members === null || members[shareOf(postId, members.length)] === options.processId;

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
  let client: pg.Client | null = null;
  let reconnect: NodeJS.Timeout | null = null;
  const firstRetryMs = options.listenRetryMs ?? 1_000;
  let retryMs = firstRetryMs;
  /**
   * Connects LISTEN, and again after any failure or loss, waiting longer each time (1, 2, 4 …
   * 30 s): a worker starts whether or not PostgreSQL takes the connection now. Meanwhile wake-ups
   * come from the queue, and the scan re-arms once connected.
   */
  const retry = () => {
    if (stopped || reconnect) return;
    client = null;
    const waitMs = retryMs;
    retryMs = Math.min(retryMs * 2, LISTEN_RETRY_CAP_MS);
    reconnect = setTimeout(() => {
      reconnect = null;
      listen().then(
        // Connected: a scan that fails is not a lost connection (retrying would leave it open).
        () => scan().catch(scanFailed),
        (error: unknown) => {
          logger.warn({ err: error, retryInMs: retryMs }, 'publish wake-up LISTEN not connected');
          retry();
        },
      );
    }, waitMs);
    reconnect.unref();
  };
  const listen = async () => {
    if (options.connectionString === null || stopped) return;
    const next = new pg.Client({ connectionString: options.connectionString });
    let lost = false;
    next.on('error', (error) => {
      if (lost) return;
      lost = true;
      logger.warn({ err: error }, 'publish wake-up LISTEN connection lost: reconnecting');
      next.end().catch(() => undefined);
      if (client === next) retry();
    });
    next.on('notification', (message) => {
      if (message.channel === MEMBERS_CHANNEL) {
        // Until then this process would still wake the newcomer's share of the posts as well:
        // two runs of one post, each reserving one of its account's init slots before one of
        // them finds the post taken, and another post of the account turned away meanwhile.
        refreshMembers().catch(membersFailed);
        return;
      }
      // Anyone with the database can NOTIFY: only a post id and a time are armed.
      const notice = wakeNotice.safeParse((message.payload ?? '').split(' '));
      if (notice.success) arm(notice.data[0], new Date(notice.data[1]), notice.data[2]);
    });
    try {
      await next.connect();
      await next.query(`listen ${WAKE_CHANNEL}`);
      await next.query(`listen ${MEMBERS_CHANNEL}`);
      // Here now: the others split the posts with this process from this moment on.
      if (options.processId !== undefined) {
        await next.query('select pg_notify($1, $2)', [MEMBERS_CHANNEL, options.processId]);
      }
    } catch (error) {
      lost = true;
      await next.end().catch(() => undefined);
      throw error;
    }
    if (stopped) {
      await next.end().catch(() => undefined);
      return;
    }
    client = next;
    retryMs = firstRetryMs;
  };

  try {
    await listen();
  } catch (error) {
    logger.warn({ err: error }, 'publish wake-up LISTEN not connected: retrying in the background');
    retry();
  }
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
    listening: () => client !== null,
    /** The live processes this one splits the posts with (null: every post is its own; tests). */
    members: () => members,
    async stop() {
      stopped = true;
      clearInterval(rescan);
      clearInterval(membership);
      bus.off('wake', arm);
      if (reconnect) clearTimeout(reconnect);
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
      const open = client;
      client = null;
      await open?.end().catch(() => undefined);
    },
  };
}
