import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { leaseStatements, type Lease } from '../../db/lease.ts';
import type { AuthorisedProfile, TokenUpdate } from './repository.ts';

/** An account's TikTok grant: storing it, refreshing it (under a lock), losing it. */
export function createAccountTokenQueries(db: Kysely<Database>) {
  const refreshLocks = leaseStatements(db, 'tiktok_token_refresh_locks', 'account_id');
  return {
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
