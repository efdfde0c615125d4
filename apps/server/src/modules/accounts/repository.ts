import type { AccountSettings, CreatorOptions } from '@cadence/shared/schemas/account';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, TikTokAccountTable } from '../../db/schema.ts';
import { leaseStatements, type Lease } from '../../db/lease.ts';
import type { TikTokPendingConnectionTable } from './db-types.ts';

export type AccountRow = Selectable<TikTokAccountTable>;
export type PendingConnectionRow = Selectable<TikTokPendingConnectionTable>;

/** What TikTok told about the account a grant is for. */
export interface AuthorisedProfile {
  openId: string;
  /** Null when the person declined `user.info.profile`. */
  username: string | null;
  displayName: string | null;
  avatarUrl: string | null;
}

export interface TokenUpdate {
  accessTokenEnc: string;
  refreshTokenEnc: string;
  accessTokenExpiresAt: Date;
  refreshTokenExpiresAt: Date;
  scopes: string[];
}

/**
 * SQL for TikTok accounts, OAuth states and token refresh locks. Reads and writes the browser
 * causes are scoped by user id; the token service and the OAuth callback work by account id.
 */
export function createAccountRepository(db: Kysely<Database>) {
  return {
    ...accountQueries(db),

    /** Runs `work` in one transaction, with the queries bound to it. */
    transaction<TResult>(work: (accounts: AccountQueries) => Promise<TResult>): Promise<TResult> {
      return db.transaction().execute((trx) => work(accountQueries(trx)));
    },
  };
}

export type AccountQueries = ReturnType<typeof accountQueries>;

function accountQueries(db: Kysely<Database>) {
  const refreshLocks = leaseStatements(db, 'tiktok_token_refresh_locks', 'account_id');
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

    async markConnected(
      id: string,
      profile: Omit<AuthorisedProfile, 'username'> & { username: string },
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

    /**
     * Stores a refresh's result, only if the account still holds the refresh token it was made
     * with (`usedRefreshTokenEnc`): false when a reconnect or another refresh replaced it meanwhile.
     */
    async storeRefreshedTokens(
      id: string,
      usedRefreshTokenEnc: string,
      tokens: TokenUpdate,
    ): Promise<boolean> {
      const result = await db
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
        .where('refresh_token_enc', '=', usedRefreshTokenEnc)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /**
     * TikTok refused the refresh token `refusedRefreshTokenEnc`: the account needs reconnecting,
     * unless it holds another refresh token by now (rotated or reconnected meanwhile).
     */
    async markReconnectNeeded(id: string, refusedRefreshTokenEnc: string): Promise<boolean> {
      const result = await db
        .updateTable('tiktok_accounts')
        .set({ status: 'reconnect_needed', updated_at: new Date() })
        .where('id', '=', id)
        .where('refresh_token_enc', '=', refusedRefreshTokenEnc)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
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

    /**
     * Keeps TikTok's answer as the account's last known options, with the TikTok user (`openId`)
     * the answer was about.
     */
    async rememberCreatorOptions(
      account: { id: string; openId: string },
      options: CreatorOptions,
      fetchedAt: Date,
    ): Promise<void> {
      const row = {
        open_id: account.openId,
        privacy_level_options: options.privacyLevelOptions,
        comment_disabled: options.commentDisabled,
        duet_disabled: options.duetDisabled,
        stitch_disabled: options.stitchDisabled,
        max_video_post_duration_sec: options.maxVideoPostDurationSec,
        fetched_at: fetchedAt,
      };
      await db
        .insertInto('tiktok_creator_options')
        .values({ account_id: account.id, ...row })
        .onConflict((oc) =>
          // Two answers at once: the later one TikTok gave stays.
          oc
            .column('account_id')
            .doUpdateSet(row)
            .where('tiktok_creator_options.fetched_at', '<=', fetchedAt),
        )
        .execute();
    },

    /** The account's last known options, when they are about the TikTok user it holds now. */
    lastCreatorOptions(accountId: string) {
      return db
        .selectFrom('tiktok_creator_options as options')
        .innerJoin('tiktok_accounts as account', (join) =>
          join
            .onRef('account.id', '=', 'options.account_id')
            .onRef('account.open_id', '=', 'options.open_id'),
        )
        .select([
          'options.privacy_level_options',
          'options.comment_disabled',
          'options.duet_disabled',
          'options.stitch_disabled',
          'options.max_video_post_duration_sec',
          'options.fetched_at',
        ])
        .where('options.account_id', '=', accountId)
        .executeTakeFirst();
    },

    /**
     * Connected accounts whose access token expires before `before`: the refresh job's work list,
     * with the refresh token each was seen with (no refresh if another process rotated it since).
     */
    dueForRefresh(before: Date) {
      return db
        .selectFrom('tiktok_accounts')
        .select(['id', 'refresh_token_enc'])
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

    insertPendingConnection(row: {
      userId: string;
      accountId: string;
      profile: AuthorisedProfile;
      tokens: TokenUpdate;
      expiresAt: Date;
    }) {
      return db
        .insertInto('tiktok_pending_connections')
        .values({
          user_id: row.userId,
          account_id: row.accountId,
          open_id: row.profile.openId,
          username: row.profile.username,
          display_name: row.profile.displayName,
          avatar_url: row.profile.avatarUrl,
          access_token_enc: row.tokens.accessTokenEnc,
          refresh_token_enc: row.tokens.refreshTokenEnc,
          access_token_expires_at: row.tokens.accessTokenExpiresAt,
          refresh_token_expires_at: row.tokens.refreshTokenExpiresAt,
          scopes: row.tokens.scopes,
          expires_at: row.expiresAt,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    /** The user's unexpired pending connection, left in place (what the warning shows). */
    findPendingConnection(userId: string, id: string, now: Date) {
      return db
        .selectFrom('tiktok_pending_connections')
        .selectAll()
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .where('expires_at', '>', now)
        .executeTakeFirst();
    },

    /** Deletes and returns the user's unexpired pending connection: keep or cancel happens once. */
    consumePendingConnection(userId: string, id: string, now: Date) {
      return db
        .deleteFrom('tiktok_pending_connections')
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .where('expires_at', '>', now)
        .returningAll()
        .executeTakeFirst();
    },

    /** Deletes the expired pending connections and returns them (their tokens are to be revoked). */
    purgeExpiredPendingConnections(now: Date) {
      return db
        .deleteFrom('tiktok_pending_connections')
        .where('expires_at', '<=', now)
        .returningAll()
        .execute();
    },

    /** Takes the account's refresh lock when it is free or its lease ran out: true when taken. */
    tryLockRefresh: (accountId: string, lease: Lease) => refreshLocks.claim(accountId, lease),

    /** Extends the refresh lock's lease; false when it is no longer ours. */
    renewRefreshLock: (accountId: string, lease: Lease) => refreshLocks.renew(accountId, lease),

    /** True while some process holds an unexpired refresh lock on the account. */
    refreshLocked: (accountId: string) => refreshLocks.isHeld(accountId),

    async unlockRefresh(accountId: string, owner: string): Promise<void> {
      await refreshLocks.release(accountId, owner);
    },
  };
}

export type AccountRepository = ReturnType<typeof createAccountRepository>;
