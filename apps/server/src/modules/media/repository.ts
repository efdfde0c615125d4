import type { MediaKind } from '@cadence/shared/schemas/media';
import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { MediaTable } from './db-types.ts';

export type MediaRow = Selectable<MediaTable>;

export function createMediaRepository(db: Kysely<Database>) {
  return {
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

    async bytesUsed(userId: string): Promise<number> {
      const row = await db
        .selectFrom('media')
        .select(sql<string>`coalesce(sum(size_bytes), 0)`.as('total'))
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow();
      return Number(row.total);
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
