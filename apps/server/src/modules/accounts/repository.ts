import type { AccountSettings } from '@cadence/shared/schemas/account';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, TikTokAccountTable } from '../../db/schema.ts';

export type AccountRow = Selectable<TikTokAccountTable>;

export interface TokenUpdate {
  accessTokenEnc: string;
  refreshTokenEnc: string;
  accessTokenExpiresAt: Date;
  refreshTokenExpiresAt: Date;
  scopes: string[];
}

/** SQL for TikTok accounts and OAuth states. Every read and write is scoped by user id. */
export function createAccountRepository(db: Kysely<Database>) {
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

    async markConnected(
      id: string,
      profile: {
        openId: string;
        username: string;
        displayName: string | null;
        avatarUrl: string | null;
      },
      tokens: TokenUpdate,
    ): Promise<void> {
      await db
        .updateTable('tiktok_accounts')
        .set({
          open_id: profile.openId,
          username: profile.username,
          display_name: profile.displayName,
          avatar_url: profile.avatarUrl,
          status: 'connected',
          access_token_enc: tokens.accessTokenEnc,
          refresh_token_enc: tokens.refreshTokenEnc,
          access_token_expires_at: tokens.accessTokenExpiresAt,
          refresh_token_expires_at: tokens.refreshTokenExpiresAt,
          scopes: tokens.scopes,
          connected_at: new Date(),
          updated_at: new Date(),
        })
        .where('id', '=', id)
        .execute();
    },

    async storeRefreshedTokens(id: string, tokens: TokenUpdate): Promise<void> {
      await db
        .updateTable('tiktok_accounts')
        .set({
          access_token_enc: tokens.accessTokenEnc,
          refresh_token_enc: tokens.refreshTokenEnc,
          access_token_expires_at: tokens.accessTokenExpiresAt,
          refresh_token_expires_at: tokens.refreshTokenExpiresAt,
          scopes: tokens.scopes,
          status: 'connected',
          updated_at: new Date(),
        })
        .where('id', '=', id)
        .execute();
    },

    async markReconnectNeeded(id: string): Promise<void> {
      await db
        .updateTable('tiktok_accounts')
        .set({ status: 'reconnect_needed', updated_at: new Date() })
        .where('id', '=', id)
        .execute();
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

    /** Connected accounts whose access token expires before `before`: the refresh job's work list. */
    dueForRefresh(before: Date) {
      return db
        .selectFrom('tiktok_accounts')
        .select('id')
        .where('status', '=', 'connected')
        .where('access_token_expires_at', '<', before)
        .execute();
    },

    async insertState(row: {
      stateHash: string;
      userId: string;
      accountId: string;
      codeVerifierEnc: string;
      expiresAt: Date;
    }) {
      await db
        .insertInto('oauth_states')
        .values({
          state_hash: row.stateHash,
          user_id: row.userId,
          account_id: row.accountId,
          code_verifier_enc: row.codeVerifierEnc,
          expires_at: row.expiresAt,
        })
        .execute();
    },

    /** Deletes and returns the state in one statement: a state can be consumed once, ever. */
    consumeState(stateHash: string) {
      return db
        .deleteFrom('oauth_states')
        .where('state_hash', '=', stateHash)
        .returningAll()
        .executeTakeFirst();
    },

    async purgeExpiredStates(now: Date): Promise<void> {
      await db.deleteFrom('oauth_states').where('expires_at', '<', now).execute();
    },
  };
}

export type AccountRepository = ReturnType<typeof createAccountRepository>;
