import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { leaseStatements, type Lease } from '../../db/lease.ts';
import './db-types.ts';

/** NOTIFY channels of the upload locks; the payload is the upload id. */
export const RELEASE_REQUESTED_CHANNEL = 'upload_lock_release_requested';
export const RELEASED_CHANNEL = 'upload_lock_released';

export type UploadLockRepository = ReturnType<typeof createUploadLockRepository>;

/** SQL of the shared upload locks (table upload_locks, PostgreSQL): lock rows of db/lease.ts. */
export function createUploadLockRepository(db: Kysely<Database>) {
  const locks = leaseStatements(db, 'upload_locks', 'upload_id');
  return {
    /** Takes the lock when it is free or its lease ran out: true when `lease` now holds it. */
    tryAcquire: (uploadId: string, lease: Lease) => locks.claim(uploadId, lease),

    /** Extends the lease; false when it is no longer ours (it expired and was taken). */
    renew: (uploadId: string, lease: Lease) => locks.renew(uploadId, lease),

    /** Frees the lock if `owner` still holds it and wakes the processes waiting for it. */
    async release(uploadId: string, owner: string): Promise<void> {
      await locks.release(uploadId, owner, RELEASED_CHANNEL);
    },

    /** Asks whichever process holds the lock to finish its request quickly. */
    async requestRelease(uploadId: string): Promise<void> {
      await sql`select pg_notify(${RELEASE_REQUESTED_CHANNEL}, ${uploadId})`.execute(db);
    },

    /** Forgets locks left by processes that died (an expired row is a free lock anyway). */
    deleteExpired: () => locks.deleteExpired(),
  };
}
