import type { MediaKind } from '@cadence/shared/schemas/media';
import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { leaseEnd } from '../../db/lease.ts';
import type { MediaTable } from './db-types.ts';

export type MediaRow = Selectable<MediaTable>;

/** What a user's media and unfinished uploads take together, in bytes. */
async function bytesUsedQuery(db: Kysely<Database>, userId: string): Promise<number> {
  const result = await sql<{ total: string | number }>`
    select
      (select coalesce(sum(size_bytes), 0) from media where user_id = ${userId})
      + (select coalesce(sum(declared_bytes), 0) from upload_reservations where user_id = ${userId})
      as total
  `.execute(db);
  return Number(result.rows[0]?.total ?? 0);
}

/** Unfinished uploads' reservations of the user's quota: made, extended, found and expired. */
function createReservationQueries(db: Kysely<Database>) {
  return {
    /** Media plus the space unfinished uploads hold (expired ones too, until they are deleted). */
    async bytesUsed(userId: string): Promise<number> {
      return bytesUsedQuery(db, userId);
    },

    /**
     * Reserves `declaredBytes` of the user's quota for a new upload, or says how much is used.
     * The user's row is locked first: concurrent creations (on any API process) queue behind it,
     * and each counts the reservations committed before it, so together they cannot overshoot.
     */
    reserveUpload(input: {
      uploadId: string;
      userId: string;
      declaredBytes: number;
      quotaBytes: number;
      ttlMs: number;
    }): Promise<{ reserved: true } | { reserved: false; usedBytes: number }> {
      return db.transaction().execute(async (trx) => {
        await trx
          .selectFrom('user')
          .select('id')
          .where('id', '=', input.userId)
          .forUpdate()
          .executeTakeFirstOrThrow();
        // A new statement, hence (READ COMMITTED) a snapshot taken after the lock was granted.
        const usedBytes = await bytesUsedQuery(trx, input.userId);
        if (usedBytes + input.declaredBytes > input.quotaBytes) {
          return { reserved: false, usedBytes };
        }
        await trx
          .insertInto('upload_reservations')
          .values({
            upload_id: input.uploadId,
            user_id: input.userId,
            declared_bytes: input.declaredBytes,
            expires_at: leaseEnd(input.ttlMs),
          })
          .execute();
        return { reserved: true };
      });
    },

    /**
     * Pushes an unfinished upload's expiry back, unless it already passed: an expired upload can
     * never be revived, so the cleanup never deletes bytes a request is still writing. The row's
     * declared size, or undefined when there is no live reservation.
     */
    async extendReservation(uploadId: string, ttlMs: number): Promise<number | undefined> {
      const row = await db
        .updateTable('upload_reservations')
        .set({ expires_at: leaseEnd(ttlMs) })
        .where('upload_id', '=', uploadId)
        .where('expires_at', '>', sql<Date>`now()`)
        .returning('declared_bytes')
        .executeTakeFirst();
      return row?.declared_bytes;
    },

    findReservation(uploadId: string) {
      return db
        .selectFrom('upload_reservations')
        .select([
          'upload_id',
          'user_id',
          'declared_bytes',
          sql<boolean>`expires_at > now()`.as('alive'),
        ])
        .where('upload_id', '=', uploadId)
        .executeTakeFirst();
    },

    async deleteReservation(uploadId: string): Promise<void> {
      await db.deleteFrom('upload_reservations').where('upload_id', '=', uploadId).execute();
    },

    /**
     * Deletes up to `limit` expired reservations (of one user, or everyone's) and returns their
     * upload ids, whose bytes the caller then removes. The expiry is checked again on the row
     * itself, so a reservation extended meanwhile by a PATCH stays.
     */
    async deleteExpiredReservations(options: { userId?: string; limit: number }) {
      let expired = db
        .selectFrom('upload_reservations')
        .select('upload_id')
        .where('expires_at', '<=', sql<Date>`now()`);
      if (options.userId) expired = expired.where('user_id', '=', options.userId);
      const rows = await db
        .deleteFrom('upload_reservations')
        .where('upload_id', 'in', expired.orderBy('expires_at').limit(options.limit))
        .where('expires_at', '<=', sql<Date>`now()`)
        .returning('upload_id')
        .execute();
      return rows.map((row) => row.upload_id);
    },
  };
}

export function createMediaRepository(db: Kysely<Database>) {
  return {
    ...createReservationQueries(db),

    insert(row: Insertable<MediaTable>) {
      return db.insertInto('media').values(row).returningAll().executeTakeFirstOrThrow();
    },

    listForUser(userId: string, kind?: MediaKind) {
      let query = db.selectFrom('media').selectAll().where('user_id', '=', userId);
      if (kind) query = query.where('kind', '=', kind);
      return query.orderBy('created_at', 'desc').limit(500).execute();
    },

    findForUser(userId: string, id: string) {
      return db
        .selectFrom('media')
        .selectAll()
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .executeTakeFirst();
    },

    findManyForUser(userId: string, ids: readonly string[]) {
      if (ids.length === 0) return Promise.resolve([]);
      return db
        .selectFrom('media')
        .selectAll()
        .where('user_id', '=', userId)
        .where('id', 'in', ids)
        .execute();
    },

    /** Records a finished upload's media and frees its reservation at once: no moment counts it twice or not at all. */
    insertReplacingReservation(row: Insertable<MediaTable>) {
      return db.transaction().execute(async (trx) => {
        const inserted = await trx
          .insertInto('media')
          .values(row)
          .returningAll()
          .executeTakeFirstOrThrow();
        await trx.deleteFrom('upload_reservations').where('upload_id', '=', row.id).execute();
        return inserted;
      });
    },

    async delete(userId: string, id: string): Promise<boolean> {
      const result = await db
        .deleteFrom('media')
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
  };
}

export type MediaRepository = ReturnType<typeof createMediaRepository>;
