import type { Logger } from 'pino';
import type { Notify } from '../notifications/service.ts';
import type { TokenCipher } from '../../lib/token-cipher.ts';
import type { TikTokClient } from '../../tiktok/tiktok-client.ts';
import { TikTokApiError } from '../../tiktok/tiktok-error.ts';
import { AccountNeedsReconnectError, usableGrant, type GrantSource } from './account-grant.ts';
import type { AccountRepository } from './repository.ts';
import { createTokenRefresher } from './token-refresh.ts';

// Other modules (publishing, schedules, analytics) tell a lost grant apart through these.
export {
  AccountDeletedError,
  AccountNeedsReconnectError,
  tokenUpdateFrom,
  type GrantSource,
} from './account-grant.ts';

/** Refresh this long before expiry, so a publish never starts with a token about to die. */
export const REFRESH_AHEAD_MS = 10 * 60 * 1000;
/**
 * An account's refresh lock lease: longer than one refresh call can take (the TikTok client gives
 * up after 30 s), so it only runs out when its holder died, even if a renewal fails. Its holder
 * renews it every third of it all the same (db/lease.ts, lib/heartbeat.ts).
 */
export const REFRESH_LOCK_MS = 45_000;

/**
 * Hands out fresh access tokens. Refreshes ahead of expiry and after a 401, always storing the
 * rotated refresh token (TikTok invalidates the previous one). A refused refresh marks the account
 * 'reconnect_needed'.
 *
 * Several processes (API, `npm run worker`) share the accounts: one refresh per account at a time
 * across all of them, under a lock row in the database. Whoever waited for the lock then uses the
 * tokens the holder stored instead of refreshing again with a refresh token that is already dead.
 * Concurrent refreshes of one account in this process also share one request (token-refresh.ts).
 */
export function createTokenService(deps: {
  accounts: AccountRepository;
  cipher: TokenCipher;
  tiktok: TikTokClient;
  now?: () => number;
  /** Lease of the refresh lock (default REFRESH_LOCK_MS). */
  lockMs?: number;
  /** How often a process waiting for another's refresh looks again (default 100 ms). */
  lockPollMs?: number;
  /** How long a process waits for another's refresh before giving up (default 2 × REFRESH_LOCK_MS). */
  lockWaitMs?: number;
  /** Where failed lock renewals are reported. */
  logger?: Pick<Logger, 'warn'>;
  /** Tells the account's owner it needs reconnecting, or that a refresh ahead of expiry failed. */
  notify?: Notify;
}) {
  const { accounts, cipher } = deps;
  const now = deps.now ?? Date.now;
  const refresh = createTokenRefresher({
    ...deps,
    now,
    lockMs: deps.lockMs ?? REFRESH_LOCK_MS,
    lockPollMs: deps.lockPollMs ?? 100,
    // A live holder keeps renewing its lock, so this bounds only a refresh that hangs.
    lockWaitMs: deps.lockWaitMs ?? 2 * REFRESH_LOCK_MS,
  });

  async function notifyRefreshFailed(accountId: string): Promise<void> {
    if (!deps.notify) return;
    const account = await accounts.findById(accountId).catch(() => undefined);
    if (!account) return;
    const day = new Date(now()).toISOString().slice(0, 10);
    await deps.notify({
      userId: account.user_id,
      type: 'token_refresh_failed',
      dedupeKey: `token_refresh_failed:${accountId}:${day}`,
      data: { account: account.username },
    });
  }

  async function freshGrant(accountId: string, known?: GrantSource) {
    const account = known ?? (await accounts.findById(accountId));
    const grant = usableGrant(cipher, accountId, account);
    const expiresAt = account?.access_token_expires_at?.getTime() ?? 0;
    if (expiresAt - now() > REFRESH_AHEAD_MS) return grant;
    return refresh(accountId, grant.refreshTokenEnc);
  }

  return {
    async getAccessToken(accountId: string): Promise<string> {
      return (await freshGrant(accountId)).accessToken;
    },

    /** Refreshes now, whatever the expiry (TikTok refused the access token). */
    async refresh(accountId: string): Promise<string> {
      return (await refresh(accountId, null)).accessToken;
    },

    /** Runs `call` with a fresh token; on a 401 it refreshes once and tries again. */
    async withAccessToken<TResult>(
      accountId: string,
      call: (accessToken: string) => Promise<TResult>,
      /** The account's token columns, when the caller read them a moment ago (a post's claim). */
      known?: GrantSource,
    ): Promise<TResult> {
      const grant = await freshGrant(accountId, known);
      try {
        return await call(grant.accessToken);
      } catch (error) {
        if (!(error instanceof TikTokApiError) || error.kind !== 'auth') throw error;
        return call((await refresh(accountId, grant.refreshTokenEnc)).accessToken);
      }
    },

    /** For the periodic job: refresh every connected account whose token expires soon. */
    async refreshDue(
      withinMs = 3 * REFRESH_AHEAD_MS,
    ): Promise<{ refreshed: number; failed: number }> {
      const due = await accounts.dueForRefresh(new Date(now() + withinMs));
      let refreshed = 0;
      let failed = 0;
      for (const { id, refresh_token_enc: seen } of due) {
        try {
          await refresh(id, seen);
          refreshed++;
        } catch (error) {
          failed++;
          // Reconnect-needed has its own notification; anything else (TikTok down, a timeout)
          // is said once a day per account while it lasts: the next sweep tries again.
          if (!(error instanceof AccountNeedsReconnectError)) await notifyRefreshFailed(id);
        }
      }
      return { refreshed, failed };
    },
  };
}

export type TokenService = ReturnType<typeof createTokenService>;
