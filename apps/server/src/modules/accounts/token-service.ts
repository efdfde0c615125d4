import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { Notify } from '../notifications/service.ts';
import { newLease } from '../../db/lease.ts';
import { LeaseLostError, startHeartbeat } from '../../lib/heartbeat.ts';
import type { TokenCipher } from '../../lib/token-cipher.ts';
import type { TikTokClient } from '../../tiktok/tiktok-client.ts';
import type { TikTokTokenSet } from '../../tiktok/tiktok-oauth.ts';
import { TikTokApiError } from '../../tiktok/tiktok-error.ts';
import type { AccountRepository, AccountRow, TokenUpdate } from './repository.ts';

/** The columns of an account a grant is read from. */
export type GrantSource = Pick<
  AccountRow,
  'status' | 'access_token_enc' | 'refresh_token_enc' | 'access_token_expires_at'
>;

/** Refresh this long before expiry, so a publish never starts with a token about to die. */
export const REFRESH_AHEAD_MS = 10 * 60 * 1000;
/**
 * An account's refresh lock lease: longer than one refresh call can take (the TikTok client gives
 * up after 30 s), so it only runs out when its holder died, even if a renewal fails. Its holder
 * renews it every third of it all the same (db/lease.ts, lib/heartbeat.ts).
 */
export const REFRESH_LOCK_MS = 45_000;

export class AccountNeedsReconnectError extends Error {
  override name = 'AccountNeedsReconnectError';
  constructor(readonly accountId: string) {
    super(`TikTok account ${accountId} must be reconnected`);
  }
}

/**
 * The account was deleted (its posts stay, detached from it). A deleted account can no more be
 * used than one needing reconnection, so this is one; the publisher tells the two apart.
 */
export class AccountDeletedError extends AccountNeedsReconnectError {
  override name = 'AccountDeletedError';
  constructor(accountId: string) {
    super(accountId);
    this.message = `TikTok account ${accountId} was deleted`;
  }
}

export function tokenUpdateFrom(
  cipher: TokenCipher,
  tokens: TikTokTokenSet,
  now = Date.now(),
): TokenUpdate {
  return {
    accessTokenEnc: cipher.encrypt(tokens.accessToken),
    refreshTokenEnc: cipher.encrypt(tokens.refreshToken),
    accessTokenExpiresAt: new Date(now + tokens.expiresIn * 1000),
    refreshTokenExpiresAt: new Date(now + tokens.refreshExpiresIn * 1000),
    scopes: tokens.scopes,
  };
}

/**
 * An access token and the stored refresh token (ciphertext) it goes with. Every refresh and
 * reconnect stores a new ciphertext, so it tells whether the tokens changed since they were read.
 */
interface Grant {
  accessToken: string;
  refreshTokenEnc: string;
}

/**
 * Hands out fresh access tokens. Refreshes ahead of expiry and after a 401, always storing the
 * rotated refresh token (TikTok invalidates the previous one). A refused refresh marks the account
 * 'reconnect_needed'.
 *
 * Several processes (API, `npm run worker`) share the accounts: one refresh per account at a time
 * across all of them, under a lock row in the database. Whoever waited for the lock then uses the
 * tokens the holder stored instead of refreshing again with a refresh token that is already dead.
 * Concurrent refreshes of one account in this process also share one request.
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
  const { accounts, cipher, tiktok } = deps;
  const now = deps.now ?? Date.now;
  const lockMs = deps.lockMs ?? REFRESH_LOCK_MS;
  const lockPollMs = deps.lockPollMs ?? 100;
  // A live holder keeps renewing its lock, so this bounds only a refresh that hangs.
  const lockWaitMs = deps.lockWaitMs ?? 2 * REFRESH_LOCK_MS;
  const inFlight = new Map<string, Promise<Grant>>();

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

  /** The account's stored grant, or why there is none to use. */
  function usableGrant(accountId: string, account: GrantSource | undefined): Grant {
    if (!account) throw new AccountDeletedError(accountId);
    if (account.status !== 'connected' || !account.access_token_enc || !account.refresh_token_enc)
      throw new AccountNeedsReconnectError(accountId);
    return {
      accessToken: cipher.decrypt(account.access_token_enc),
      refreshTokenEnc: account.refresh_token_enc,
    };
  }

  /**
   * Refreshes at TikTok; the caller holds the account's refresh lock while `lock` is not aborted.
   * Once TikTok is asked, the answer is stored whatever happens to the lock: TikTok has rotated
   * the refresh token, and the store's own condition keeps a newer grant.
   */
  async function refreshLocked(
    accountId: string,
    seen: string | null,
    lock: AbortSignal,
  ): Promise<Grant> {
    const account = await accounts.findById(accountId);
    if (!account) throw new AccountDeletedError(accountId);
    if (!account.refresh_token_enc || account.status === 'not_connected')
      throw new AccountNeedsReconnectError(accountId);
    // Another process refreshed (or the person reconnected) since the caller read the tokens.
    if (seen !== null && account.refresh_token_enc !== seen && account.status === 'connected')
      return usableGrant(accountId, account);
    const used = account.refresh_token_enc;
    // This process stalled past the lock's lease and another took it: that one refreshes.
    lock.throwIfAborted();
    let tokens: TikTokTokenSet;
    try {
      tokens = await tiktok.refreshToken(cipher.decrypt(used));
    } catch (error) {
      if (
        error instanceof TikTokApiError &&
        (error.kind === 'permanent' || error.kind === 'auth')
      ) {
        // Refused: only the refresh token we used is proven dead, not one stored since.
        if (await accounts.markReconnectNeeded(accountId, used)) {
          // Marked by this call alone (conditional on the token it used): one event per grant lost.
          await deps.notify?.({
            userId: account.user_id,
            type: 'account_reconnect_needed',
            dedupeKey: `account_reconnect_needed:${accountId}:${used.slice(-24)}`,
            data: { account: account.username },
          });
          throw new AccountNeedsReconnectError(accountId);
        }
        return usableGrant(accountId, await accounts.findById(accountId));
      }
      throw error;
    }
    const update = tokenUpdateFrom(cipher, tokens, now());
    if (await accounts.storeRefreshedTokens(accountId, used, update))
      return { accessToken: tokens.accessToken, refreshTokenEnc: update.refreshTokenEnc };
    // A reconnect stored a newer grant while TikTok answered: that one is the account's now.
    return usableGrant(accountId, await accounts.findById(accountId));
  }

  /**
   * Refreshes the account's tokens unless they changed since the caller saw the refresh token
   * `seen` (null: refresh in any case), and returns the grant to use.
   */
  async function refreshAcrossProcesses(accountId: string, seen: string | null): Promise<Grant> {
    const deadline = Date.now() + lockWaitMs;
    for (;;) {
      const lease = newLease(lockMs);
      if (await accounts.tryLockRefresh(accountId, lease)) {
        const heartbeat = startHeartbeat({
          intervalMs: lockMs / 3,
          renew: () => accounts.renewRefreshLock(accountId, lease),
          lostAfterMs: lockMs,
          since: lease.claimedAt,
          onError: (error) =>
            deps.logger?.warn({ err: error, accountId }, 'token refresh lock renewal failed'),
        });
        try {
          return await refreshLocked(accountId, seen, heartbeat.signal);
        } catch (error) {
          if (!(error instanceof LeaseLostError)) throw error;
          // Lost before TikTok was asked: wait for the new holder below, like any waiter.
        } finally {
          await heartbeat.stop();
          await accounts.unlockRefresh(accountId, lease.owner);
        }
      }
      // Another process is refreshing this account: wait for it, then take what it stored.
      while (await accounts.refreshLocked(accountId)) {
        if (Date.now() > deadline)
          throw new Error(`TikTok account ${accountId}: token refresh lock not released`);
        await sleep(lockPollMs);
      }
      const account = await accounts.findById(accountId);
      if (account?.status === 'reconnect_needed') throw new AccountNeedsReconnectError(accountId);
      const grant = usableGrant(accountId, account);
      if (seen !== null && grant.refreshTokenEnc !== seen) return grant;
      // The other process failed (TikTok unreachable): try ourselves.
    }
  }

  async function refresh(accountId: string, seen: string | null): Promise<Grant> {
    const running = inFlight.get(accountId);
    if (running) return running;
    const task = refreshAcrossProcesses(accountId, seen);
    inFlight.set(accountId, task);
    try {
      return await task;
    } finally {
      inFlight.delete(accountId);
    }
  }

  async function freshGrant(accountId: string, known?: GrantSource): Promise<Grant> {
    const account = known ?? (await accounts.findById(accountId));
    const grant = usableGrant(accountId, account);
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
