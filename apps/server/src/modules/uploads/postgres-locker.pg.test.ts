import { randomBytes } from 'node:crypto';
import { ERRORS } from '@tus/server';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../db/client.ts';
import { migrate } from '../../db/migrate.ts';
import { openTestDatabase } from '../../test-support/database.ts';
import { pollUntil } from '../../tiktok/sandbox-test-kit.ts';
import { PostgresLocker, type PostgresLockerOptions } from './postgres-locker.ts';

interface ApiProcess {
  locker: PostgresLocker;
  database: DatabaseHandle;
  /** What the locker reported through onError. */
  errors: Error[];
}

const neverStopped = new AbortController().signal;
const ignoreReleaseRequests = () => undefined;
const newUploadId = () => `user-${randomBytes(16).toString('hex')}`;

// PGlite serves one process and keeps tus's MemoryLocker: this locker is PostgreSQL's.
describe('PostgresLocker across processes', () => {
  let database: DatabaseHandle & { url: string | null };
  let url = '';
  const processes: ApiProcess[] = [];

  beforeAll(async () => {
    database = await openTestDatabase('postgres');
    url = database.url ?? '';
    await migrate(database.db);
  });
  afterEach(async () => {
    for (const { locker, database: pool } of processes.splice(0)) {
      await locker.close();
      await pool.close();
    }
  });
  afterAll(async () => {
    await database.close();
  });

  /** An API process of its own: its own pool and LISTEN connection, the shared database. */
  async function startProcess(options: Partial<PostgresLockerOptions> = {}): Promise<ApiProcess> {
    const pool = await openDatabase({ databaseUrl: url, pgliteDataDir: '', poolSize: 2 });
    const errors: Error[] = [];
    const locker = await PostgresLocker.start({
      db: pool.db,
      connectionString: url,
      onError: (error) => errors.push(error),
      ...options,
    });
    const started = { locker, database: pool, errors };
    processes.push(started);
    return started;
  }

  const ownerOf = async (uploadId: string) =>
    (
      await database.db
        .selectFrom('upload_locks')
        .select('lease_owner')
        .where('upload_id', '=', uploadId)
        .executeTakeFirst()
    )?.lease_owner ?? null;

  it('makes a second process wait while the first holds the lock, and wakes it on release', async () => {
    const first = await startProcess();
    // Only the release notification can wake it within the test: its own retry is 20 s away.
    const second = await startProcess({ retryIntervalMs: 20_000 });
    const uploadId = newUploadId();
    const held = first.locker.newLock(uploadId);
    let releaseRequests = 0;
    await held.lock(neverStopped, () => {
      releaseRequests += 1;
    });

    let secondHolds = false;
    const waiting = second.locker.newLock(uploadId);
    const acquired = waiting.lock(neverStopped, ignoreReleaseRequests).then(() => {
      secondHolds = true;
    });
    await pollUntil(
      () => Promise.resolve(releaseRequests),
      (count) => count > 0,
      { timeoutMs: 5_000, intervalMs: 10 },
    );
    expect(secondHolds).toBe(false);

    const unlockedAt = Date.now();
    await held.unlock();
    await acquired;
    expect(Date.now() - unlockedAt).toBeLessThan(5_000);
    expect(await ownerOf(uploadId)).not.toBeNull();
    await waiting.unlock();
    expect(await ownerOf(uploadId)).toBeNull();
  });

  it("calls the holder's requestRelease when another process asks, and hands over once it unlocks", async () => {
    const first = await startProcess();
    const second = await startProcess();
    const uploadId = newUploadId();
    const held = first.locker.newLock(uploadId);
    let unlocking: Promise<void> | null = null;
    // What tus's requestRelease does: the request winds down, then unlocks.
    await held.lock(neverStopped, () => {
      unlocking ??= held.unlock();
    });
    let waiterAsked = false;
    const waiting = second.locker.newLock(uploadId);
    await waiting.lock(neverStopped, () => {
      waiterAsked = true;
    });

    expect(unlocking).not.toBeNull();
    expect(waiterAsked).toBe(false);
    await waiting.unlock();
    expect(first.errors).toEqual([]);
    expect(second.errors).toEqual([]);
  });

  it('gives up with ERR_LOCK_TIMEOUT while the holder keeps the lock, and takes nothing', async () => {
    const first = await startProcess();
    const second = await startProcess({ acquireTimeoutMs: 500, retryIntervalMs: 50 });
    const uploadId = newUploadId();
    const held = first.locker.newLock(uploadId);
    await held.lock(neverStopped, ignoreReleaseRequests);
    const holder = await ownerOf(uploadId);

    const startedAt = Date.now();
    const waiting = second.locker.newLock(uploadId);
    await expect(waiting.lock(neverStopped, ignoreReleaseRequests)).rejects.toMatchObject(
      ERRORS.ERR_LOCK_TIMEOUT,
    );
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(500);
    expect(Date.now() - startedAt).toBeLessThan(5_000);
    expect(await ownerOf(uploadId)).toBe(holder);
    await expect(waiting.unlock()).rejects.toThrow('Releasing an unlocked lock!');
    await held.unlock();
  });

  it('renews the lease while the lock is held, so a live holder keeps it for many leases', async () => {
    const first = await startProcess({ leaseMs: 900 });
    const second = await startProcess({ acquireTimeoutMs: 3_000, retryIntervalMs: 50 });
    const uploadId = newUploadId();
    const held = first.locker.newLock(uploadId);
    await held.lock(neverStopped, ignoreReleaseRequests);
    const holder = await ownerOf(uploadId);

    await expect(
      second.locker.newLock(uploadId).lock(neverStopped, ignoreReleaseRequests),
    ).rejects.toMatchObject(ERRORS.ERR_LOCK_TIMEOUT);
    expect(await ownerOf(uploadId)).toBe(holder);
    await held.unlock();
  });

  it('takes over the lock of a process that died once its lease expires', async () => {
    const uploadId = newUploadId();
    // What a killed process leaves behind: a row nobody renews and nobody will release.
    await sql`insert into upload_locks (upload_id, lease_owner, lease_until)
      values (${uploadId}, 'process-that-died', now() + interval '1 second')`.execute(database.db);
    const survivor = await startProcess({ acquireTimeoutMs: 10_000, retryIntervalMs: 100 });

    const startedAt = Date.now();
    const lock = survivor.locker.newLock(uploadId);
    await lock.lock(neverStopped, ignoreReleaseRequests);
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(500);
    expect(Date.now() - startedAt).toBeLessThan(5_000);
    expect(await ownerOf(uploadId)).not.toBe('process-that-died');
    await lock.unlock();
    expect(await ownerOf(uploadId)).toBeNull();
  });

  it('stops waiting as soon as the request is stopped', async () => {
    const first = await startProcess();
    const second = await startProcess({ acquireTimeoutMs: 30_000, retryIntervalMs: 20_000 });
    const uploadId = newUploadId();
    const held = first.locker.newLock(uploadId);
    let releaseRequests = 0;
    await held.lock(neverStopped, () => {
      releaseRequests += 1;
    });

    const stop = new AbortController();
    const waiting = second.locker.newLock(uploadId).lock(stop.signal, ignoreReleaseRequests);
    await pollUntil(
      () => Promise.resolve(releaseRequests),
      (count) => count > 0,
      { timeoutMs: 5_000, intervalMs: 10 },
    );
    const stoppedAt = Date.now();
    stop.abort();
    await expect(waiting).rejects.toMatchObject(ERRORS.ERR_LOCK_TIMEOUT);
    expect(Date.now() - stoppedAt).toBeLessThan(2_000);
    await held.unlock();
  });

  it('asks its own request to stop when another process took its expired lease', async () => {
    const stalled = await startProcess({ leaseMs: 900 });
    const uploadId = newUploadId();
    const held = stalled.locker.newLock(uploadId);
    let releaseRequests = 0;
    await held.lock(neverStopped, () => {
      releaseRequests += 1;
    });
    // As if this process had stalled past its lease and another had taken the lock meanwhile.
    await database.db
      .updateTable('upload_locks')
      .set({ lease_owner: 'another-process' })
      .where('upload_id', '=', uploadId)
      .execute();

    await pollUntil(
      () => Promise.resolve(releaseRequests),
      (count) => count > 0,
      { timeoutMs: 5_000, intervalMs: 10 },
    );
    expect(stalled.errors.map((error) => error.message)).toContain(
      `lost the lock on upload ${uploadId}: its lease expired`,
    );
    await held.unlock();
    expect(await ownerOf(uploadId)).toBe('another-process');
  });

  it('asks its own request to stop when it cannot renew its lease for half of it', async () => {
    const holding = await startProcess({ leaseMs: 1_000 });
    const uploadId = newUploadId();
    const held = holding.locker.newLock(uploadId);
    let askedAt: number | null = null;
    await held.lock(neverStopped, () => {
      askedAt ??= Date.now();
    });
    const lockedAt = Date.now();
    // A renewal that hangs, as with a database that stopped answering: the row is locked elsewhere.
    const blocker = new pg.Client({ connectionString: url });
    await blocker.connect();
    try {
      await blocker.query('begin');
      await blocker.query('select 1 from upload_locks where upload_id = $1 for update', [uploadId]);
      await pollUntil(
        () => Promise.resolve(askedAt),
        (at) => at !== null,
        { timeoutMs: 5_000, intervalMs: 10 },
      );
      // Half the lease, so the request (tus drains it for 3 s at most) ends before it expires.
      expect((askedAt ?? 0) - lockedAt).toBeLessThan(1_000);
      expect(holding.errors.map((error) => error.message)).toContain(
        `could not renew the lock on upload ${uploadId} in time`,
      );
    } finally {
      await blocker.query('rollback');
      await blocker.end();
    }
    await held.unlock();
    expect(await ownerOf(uploadId)).toBeNull();
  });

  it('survives its LISTEN connection being terminated and hears release requests again', async () => {
    const first = await startProcess({ reconnectDelayMs: 50 });
    const second = await startProcess({ reconnectDelayMs: 50, acquireTimeoutMs: 10_000 });
    const listeners = sql<{ pid: number }>`select pid from pg_stat_activity
      where datname = current_database() and application_name = 'cadence-upload-locks'`;
    const before = (await listeners.execute(database.db)).rows.map((row) => row.pid);
    expect(before).toHaveLength(2);
    await sql`select pg_terminate_backend(pid) from pg_stat_activity
      where datname = current_database() and application_name = 'cadence-upload-locks'`.execute(
      database.db,
    );
    // Reported, not thrown: an unhandled 'error' would have crashed the test process.
    await pollUntil(
      () => Promise.resolve([...first.errors, ...second.errors]),
      (errors) => errors.length >= 2,
      { timeoutMs: 5_000, intervalMs: 20 },
    );
    expect((first.errors[0] as Error & { code?: string }).code).toBe('57P01');
    const after = await pollUntil(
      async () => (await listeners.execute(database.db)).rows.map((row) => row.pid),
      (pids) => pids.length === 2,
      { timeoutMs: 5_000, intervalMs: 20 },
    );
    expect(after).not.toContain(before[0]);

    const uploadId = newUploadId();
    const held = first.locker.newLock(uploadId);
    let unlocking: Promise<void> | null = null;
    await held.lock(neverStopped, () => {
      unlocking ??= held.unlock();
    });
    const waiting = second.locker.newLock(uploadId);
    await waiting.lock(neverStopped, ignoreReleaseRequests);
    expect(unlocking).not.toBeNull();
    await waiting.unlock();
  });
});
