// tus locks an upload for each HEAD, PATCH and DELETE so two requests never write it at once. Its
// default MemoryLocker only sees the requests of its own process; behind a load balancer a client
// retrying on another process while its first PATCH still streams would have two writers on one
// file. This locker keeps the locks in PostgreSQL, with tus's semantics: a waiter asks the holder
// to finish quickly (LISTEN/NOTIFY), then gets the lock, or ERR_LOCK_TIMEOUT.
import { ERRORS } from '@tus/server';
import type { Lock, Locker, RequestRelease } from '@tus/server';
import type { Kysely } from 'kysely';
import pg from 'pg';
import { newLease, type Lease } from '../../db/lease.ts';
import type { Database } from '../../db/schema.ts';
import { leaseLoss, startHeartbeat } from '../../lib/heartbeat.ts';
import {
  RELEASED_CHANNEL,
  RELEASE_REQUESTED_CHANNEL,
  createUploadLockRepository,
  type UploadLockRepository,
} from './lock-repository.ts';

export interface PostgresLockerOptions {
  db: Kysely<Database>;
  /** The same database, for the one connection that LISTENs for release requests. */
  connectionString: string;
  /** Waiting longer fails the request with tus's ERR_LOCK_TIMEOUT (500). Default 30 s, as tus. */
  acquireTimeoutMs?: number;
  /**
   * A held lock expires this long after its last renewal (renewed every third of it), so the
   * locks of a process that died pass on within it. Default 15 s.
   */
  leaseMs?: number;
  /**
   * A waiter retries, and asks the holder again, this often even without hearing of a release
   * (an expired lease, a notification lost while a LISTEN connection reconnected). Default 1 s.
   */
  retryIntervalMs?: number;
  /** First delay before reopening a lost LISTEN connection, doubled up to 30 s. Default 1 s. */
  reconnectDelayMs?: number;
  /** Problems the locker survives (lost connection, failed renewal, lost lease): for the log. */
  onError?: (error: Error) => void;
}

/** tus's ERR_LOCK_TIMEOUT (500, 'failed to acquire lock before timeout'), as an Error. */
export class LockTimeoutError extends Error {
  readonly status_code = ERRORS.ERR_LOCK_TIMEOUT.status_code;
  readonly body = ERRORS.ERR_LOCK_TIMEOUT.body;

  constructor(uploadId: string) {
    super(`no lock on upload ${uploadId} before the timeout`);
    this.name = 'LockTimeoutError';
  }
}

interface Holder {
  requestRelease: RequestRelease;
  release(): Promise<void>;
}

/** Upload locks shared by every process using the database; open with `start`, then `close`. */
export class PostgresLocker implements Locker {
  private readonly repository: UploadLockRepository;
  private readonly acquireTimeoutMs: number;
  private readonly leaseMs: number;
  private readonly retryIntervalMs: number;
  private readonly initialReconnectDelayMs: number;
  private reconnectDelayMs: number;
  /** Locks held by requests of this process, by upload id. */
  private readonly holders = new Map<string, Holder>();
  /** Requests of this process waiting for a lock, woken when its release is announced. */
  private readonly waiters = new Map<string, Set<() => void>>();
  private listener: pg.Client | null = null;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private closed = false;

  private constructor(private readonly options: PostgresLockerOptions) {
    this.repository = createUploadLockRepository(options.db);
    this.acquireTimeoutMs = options.acquireTimeoutMs ?? 30_000;
    this.leaseMs = options.leaseMs ?? 15_000;
    this.retryIntervalMs = options.retryIntervalMs ?? 1_000;
    this.initialReconnectDelayMs = options.reconnectDelayMs ?? 1_000;
    this.reconnectDelayMs = this.initialReconnectDelayMs;
  }

  /** Connects the LISTEN connection; rejects when the database cannot be reached. */
  static async start(options: PostgresLockerOptions): Promise<PostgresLocker> {
    const locker = new PostgresLocker(options);
    await locker.repository.deleteExpired();
    await locker.listen();
    return locker;
  }

  newLock(uploadId: string): Lock {
    let held: Holder | null = null;
    return {
      lock: async (stopSignal, requestRelease) => {
        held = await this.acquire(uploadId, stopSignal, requestRelease);
      },
      unlock: async () => {
        if (!held) throw new Error('Releasing an unlocked lock!');
        const holder = held;
        held = null;
        await holder.release();
      },
    };
  }

  /** Closes the LISTEN connection. Locks still held are released by their requests, or expire. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    const listener = this.listener;
    this.listener = null;
    await listener?.end();
  }

  private async acquire(
    uploadId: string,
    stopSignal: AbortSignal,
    requestRelease: RequestRelease,
  ): Promise<Holder> {
    const deadline = Date.now() + this.acquireTimeoutMs;
    for (;;) {
      // Armed before trying, so a release announced while the attempt runs is not missed.
      const wake = this.wakeUp(
        uploadId,
        Math.max(0, Math.min(this.retryIntervalMs, deadline - Date.now())),
        stopSignal,
      );
      try {
        const lease = newLease(this.leaseMs);
        if (await this.repository.tryAcquire(uploadId, lease)) {
          return this.hold(uploadId, lease, requestRelease);
        }
        // As MemoryLocker: a stopped request and a timeout both end with ERR_LOCK_TIMEOUT.
        if (stopSignal.aborted || Date.now() >= deadline) throw new LockTimeoutError(uploadId);
        await this.repository.requestRelease(uploadId);
        await wake.promise;
      } finally {
        wake.cancel();
      }
    }
  }

  /** Resolves on the next announced release of `uploadId`, after `ms`, or when `signal` aborts. */
  private wakeUp(uploadId: string, ms: number, signal: AbortSignal) {
    let resolve!: () => void;
    const promise = new Promise<void>((done) => (resolve = done));
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', resolve);
    const waiting = this.waiters.get(uploadId) ?? new Set();
    this.waiters.set(uploadId, waiting);
    waiting.add(resolve);
    return {
      promise,
      cancel: () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', resolve);
        waiting.delete(resolve);
        if (waiting.size === 0 && this.waiters.get(uploadId) === waiting) {
          this.waiters.delete(uploadId);
        }
      },
    };
  }

  /** Registers a lock just taken and keeps its lease alive until the lock is released. */
  private hold(uploadId: string, lease: Lease, requestRelease: RequestRelease): Holder {
    const heartbeat = startHeartbeat({
      intervalMs: this.leaseMs / 3,
      renew: () => this.repository.renew(uploadId, lease),
      // Not confirmed for half the lease (database unreachable or slow): the request stops while
      // the other half, minus tus's 3 s drain, still keeps the upload ours.
      lostAfterMs: this.leaseMs / 2,
      since: lease.claimedAt,
      onError: (error) => this.report(error),
    });
    heartbeat.signal.addEventListener('abort', () => {
      this.report(
        new Error(
          leaseLoss(heartbeat.signal) === 'taken'
            ? // This process stalled past its lease and another took the lock: stop writing now.
              `lost the lock on upload ${uploadId}: its lease expired`
            : `could not renew the lock on upload ${uploadId} in time`,
        ),
      );
      this.askToRelease(holder);
    });
    const holder: Holder = {
      requestRelease,
      release: async () => {
        if (this.holders.get(uploadId) === holder) this.holders.delete(uploadId);
        await heartbeat.stop();
        await this.repository.release(uploadId, lease.owner);
      },
    };
    this.holders.set(uploadId, holder);
    return holder;
  }

  private askToRelease(holder: Holder): void {
    // tus's requestRelease may throw or return a promise; neither may escape as unhandled.
    Promise.resolve()
      .then(() => holder.requestRelease())
      .catch((error: unknown) => this.report(error));
  }

  private onNotification(channel: string, uploadId: string | undefined): void {
    if (uploadId === undefined) return;
    if (channel === RELEASE_REQUESTED_CHANNEL) {
      const holder = this.holders.get(uploadId);
      if (holder) this.askToRelease(holder);
    } else if (channel === RELEASED_CHANNEL) {
      for (const wake of this.waiters.get(uploadId) ?? []) wake();
    }
  }

  private async listen(): Promise<void> {
    const client = new pg.Client({
      connectionString: this.options.connectionString,
      application_name: 'cadence-upload-locks',
    });
    // Without a listener, a connection terminated by the server (restart, failover, admin) would
    // be thrown as an uncaught exception and take the process down.
    client.on('error', (error) => this.report(error));
    let ended = false;
    client.on('end', () => {
      ended = true;
      if (this.listener !== client) return;
      this.listener = null;
      this.scheduleReconnect();
    });
    client.on('notification', (message) => this.onNotification(message.channel, message.payload));
    try {
      await client.connect();
      await client.query(`listen ${RELEASE_REQUESTED_CHANNEL}; listen ${RELEASED_CHANNEL}`);
      if (ended) throw new Error('the LISTEN connection ended while it was being opened');
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    if (this.closed) {
      await client.end();
      return;
    }
    this.listener = client;
  }

  private scheduleReconnect(): void {
    if (this.closed) return;
    const delay = this.reconnectDelayMs;
    this.reconnectDelayMs = Math.min(delay * 2, 30_000);
    this.reconnectTimer = setTimeout(() => {
      this.listen().then(
        () => {
          this.reconnectDelayMs = this.initialReconnectDelayMs;
        },
        (error: unknown) => {
          this.report(error);
          this.scheduleReconnect();
        },
      );
    }, delay);
    this.reconnectTimer.unref();
  }

  private report(error: unknown): void {
    this.options.onError?.(error instanceof Error ? error : new Error(String(error)));
  }
}
