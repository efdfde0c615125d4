import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import '../media/db-types.ts';
import '../memes/db-types.ts';
import './export-db-types.ts';

/** What a person's data is made of, outside the rows that go with their user row (cascade). */
export function createDataRightsRepository(db: Kysely<Database>) {
  return {
    async accountIds(userId: string): Promise<string[]> {
      const rows = await db
        .selectFrom('tiktok_accounts')
        .select('id')
        .where('user_id', '=', userId)
        .execute();
      return rows.map((row) => row.id);
    },

    /** Every storage object of the person: videos, thumbnails, renders, compilations, sources, data exports. */
    async storageKeys(userId: string): Promise<string[]> {
      const media = await db
        .selectFrom('media')
        .select(['storage_key', 'thumbnail_key'])
        .where('user_id', '=', userId)
        .execute();
      const sources = await db
        .selectFrom('meme_analyses')
        .select('source_key')
        .where('user_id', '=', userId)
        .execute();
      const exports = await db
        .selectFrom('data_exports')
        .select('storage_key')
        .where('user_id', '=', userId)
        .execute();
      return [
        ...exports.map((row) => row.storage_key),
        ...media.flatMap((row) => [row.storage_key, row.thumbnail_key]),
        ...sources.map((row) => row.source_key),
      ].filter((key): key is string => key !== null);
    },

    /**
     * Deletes the user row; every table holding their data references it `on delete cascade`
     * (sessions, accounts, media, posts, drafts, slots, analytics, notifications, outbox…).
     * better-auth's verification rows (a pending reset link) name the user only in their value.
     * Posts and draft videos reference media without a cascade (a video in use must not vanish
     * by itself): they go first, in the same transaction.
     */
    async deleteUser(userId: string): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await sql`delete from drafts where user_id = ${userId}`.execute(trx);
        await sql`delete from posts where user_id = ${userId}`.execute(trx);
        await sql`delete from "verification" where "value" = ${userId}`.execute(trx);
        await trx.deleteFrom('user').where('id', '=', userId).execute();
      });
    },
  };
}

export type DataRightsRepository = ReturnType<typeof createDataRightsRepository>;
