import type { AccountSettings } from '@cadence/shared/schemas/account';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** The account cards themselves: finding, adding, settings and deleting them. */
export function createAccountCardQueries(db: Kysely<Database>) {
  return {
    listForUser(userId: string) {
      return db
        .selectFrom('tiktok_accounts')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('created_at', 'asc')
        .execute();
    },

    findForUser(userId: string, id: string) {
      return db
        .selectFrom('tiktok_accounts')
        .selectAll()
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .executeTakeFirst();
    },

    findById(id: string) {
      return db.selectFrom('tiktok_accounts').selectAll().where('id', '=', id).executeTakeFirst();
    },

    findByOpenId(userId: string, openId: string) {
      return db
        .selectFrom('tiktok_accounts')
        .selectAll()
        .where('user_id', '=', userId)
        .where('open_id', '=', openId)
        .executeTakeFirst();
    },

    /** True when some card, of any user, holds a grant for this TikTok user (open_id). */
    async openIdInUse(openId: string): Promise<boolean> {
      const row = await db
        .selectFrom('tiktok_accounts')
        .select('id')
        .where('open_id', '=', openId)
        .where('access_token_enc', 'is not', null)
        .executeTakeFirst();
      return row !== undefined;
    },

    /** The user's account with this username, compared as the unique index does (any case). */
    findByUsername(userId: string, username: string) {
      return db
        .selectFrom('tiktok_accounts')
        .selectAll()
        .where('user_id', '=', userId)
        .where(sql<string>`lower(username)`, '=', username.toLowerCase())
        .executeTakeFirst();
    },

    async usernameTaken(userId: string, username: string): Promise<boolean> {
      const row = await db
        .selectFrom('tiktok_accounts')
        .select('id')
        .where('user_id', '=', userId)
        .where(sql<string>`lower(username)`, '=', username.toLowerCase())
        .executeTakeFirst();
      return row !== undefined;
    },

    insert(userId: string, username: string) {
      return db
        .insertInto('tiktok_accounts')
        .values({ user_id: userId, username })
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    async delete(userId: string, id: string): Promise<boolean> {
      const result = await db
        .deleteFrom('tiktok_accounts')
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .executeTakeFirst();
      return result.numDeletedRows > 0n;
    },

    async updateSettings(userId: string, id: string, settings: AccountSettings): Promise<boolean> {
      const result = await db
        .updateTable('tiktok_accounts')
        .set({
          default_privacy_level: settings.defaultPrivacyLevel,
          allow_comment: settings.allowComment,
          allow_duet: settings.allowDuet,
          allow_stitch: settings.allowStitch,
          updated_at: new Date(),
        })
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },
  };
}
