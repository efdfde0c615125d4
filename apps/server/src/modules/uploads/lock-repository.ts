import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { leaseEnd } from '../../db/lease.ts';
import './db-types.ts';

/** NOTIFY channels of the upload locks; the payload is the upload id. */
export const RELEASE_REQUESTED_CHANNEL = 'upload_lock_release_requested';
export const RELEASED_CHANNEL = 'upload_lock_released';

export type UploadLockRepository = ReturnType<typeof createUploadLockRepository>;

/** SQL of the shared upload locks (table upload_locks, PostgreSQL). */
export function createUploadLockRepository(db: Kysely<Database>) {
  return {
    /** Takes the lock when it is free or its lease ran out: true when `owner` now holds it. */
    async tryAcquire(uploadId: string, owner: string, leaseMs: number): Promise<boolean> {
      const row = await db
        .insertInto('upload_locks')
        .values({ upload_id: uploadId, owner, expires_at: leaseEnd(leaseMs) })
        .onConflict((conflict) =>
          conflict
            .column('upload_id')
            .doUpdateSet({ owner, expires_at: leaseEnd(leaseMs) })
            .where('upload_locks.expires_at', '<=', sql<Date>`now()`),
        )
        .returning('owner')
        .executeTakeFirst();
      return row !== undefined;
    },

    /** Extends the lease; false when `owner` no longer holds the lock (it expired and was taken). */
    async renew(uploadId: string, owner: string, leaseMs: number): Promise<boolean> {
      const result = await db
        .updateTable('upload_locks')
        .set({ expires_at: leaseEnd(leaseMs) })
        .where('upload_id', '=', uploadId)
        .where('owner', '=', owner)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /** Frees the lock if `owner` still holds it and wakes the processes waiting for it. */
    async release(uploadId: string, owner: string): Promise<void> {
      await sql`
        with released as (
          delete from upload_locks where upload_id = ${uploadId} and owner = ${owner}
          returning upload_id
        )
        select pg_notify(${RELEASED_CHANNEL}, upload_id) from released
      `.execute(db);
    },

    /** Asks whichever process holds the lock to finish its request quickly. */
    async requestRelease(uploadId: string): Promise<void> {
      await sql`select pg_notify(${RELEASE_REQUESTED_CHANNEL}, ${uploadId})`.execute(db);
    },

    /** Forgets locks left by processes that died (an expired row is a free lock anyway). */
    async deleteExpired(): Promise<number> {
      const result = await db
        .deleteFrom('upload_locks')
        .where('expires_at', '<=', sql<Date>`now()`)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
