import pg from 'pg';
import type { Logger } from 'pino';
import { z } from 'zod';
import { PREPARE_LEAD_MS } from './run-leads.ts';

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

/** The longest wait between two attempts to connect the LISTEN connection. */
const LISTEN_RETRY_CAP_MS = 30_000;

export interface WakeListenerOptions {
  /** postgres://… to LISTEN on (a connection of its own); null on PGlite (one process). */
  connectionString: string | null;
  /** This process's id, announced on MEMBERS_CHANNEL once it listens. */
  processId?: string;
  /** First wait before connecting again after a failure (doubles, up to 30 s). */
  listenRetryMs?: number;
  logger: Pick<Logger, 'warn'>;
  /** A wake-up announced by another process: the post, when, and maybe its lead. */
  onWake: (postId: string, at: Date, leadMs?: number) => void;
  /** A worker process joined: the live processes are read again. */
  onJoin: () => void;
  /** Connected again after a failure: the timers are re-armed from the table. */
  onReconnect: () => void;
}

/**
 * The LISTEN connection of one worker process's wake-up timers (PostgreSQL only): the wake-ups
 * other processes announce, and the processes that join.
 */
export function createWakeListener(options: WakeListenerOptions) {
  const { logger } = options;
  let stopped = false;
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
        () => options.onReconnect(),
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
        options.onJoin();
        return;
      }
      // Anyone with the database can NOTIFY: only a post id and a time are armed.
      const notice = wakeNotice.safeParse((message.payload ?? '').split(' '));
      if (notice.success) options.onWake(notice.data[0], new Date(notice.data[1]), notice.data[2]);
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

  return {
    async start(): Promise<void> {
      try {
        await listen();
      } catch (error) {
        logger.warn(
          { err: error },
          'publish wake-up LISTEN not connected: retrying in the background',
        );
        retry();
      }
    },
    listening: () => client !== null,
    async stop(): Promise<void> {
      stopped = true;
      if (reconnect) clearTimeout(reconnect);
      const open = client;
      client = null;
      await open?.end().catch(() => undefined);
    },
  };
}
