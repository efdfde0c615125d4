import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { Notify } from '../notifications/service.ts';
import { newLease } from '../../db/lease.ts';
import { LeaseLostError, startHeartbeat } from '../../lib/heartbeat.ts';
import type { TokenCipher } from '../../lib/token-cipher.ts';
import type { TikTokClient } from '../../tiktok/tiktok-client.ts';
import type { TikTokTokenSet } from '../../tiktok/tiktok-oauth.ts';
import { TikTokApiError } from '../../tiktok/tiktok-error.ts';
import {
  AccountDeletedError,
  AccountNeedsReconnectError,
  tokenUpdateFrom,
  usableGrant,
  type Grant,
} from './account-grant.ts';
import type { AccountRepository } from './repository.ts';

/** What a refresh works with; the lock timings come resolved (defaults in token-service.ts). */
export interface TokenRefreshDeps {
  accounts: AccountRepository;
  cipher: TokenCipher;
  tiktok: TikTokClient;
  now: () => number;
  /** Lease of the account's refresh lock. */
  lockMs: number;
  /** How often a process waiting for another's refresh looks again. */
  lockPollMs: number;
  /** How long a process waits for another's refresh before giving up. */
  lockWaitMs: number;
  logger?: Pick<Logger, 'warn'> | undefined;
  notify?: Notify | undefined;
}

/**
 * Refreshes at TikTok; the caller holds the account's refresh lock while `lock` is not aborted.
 * Once TikTok is asked, the answer is stored whatever happens to the lock: TikTok has rotated
 * the refresh token, and the store's own condition keeps a newer grant.
 */
async function refreshAtTikTok(
  deps: TokenRefreshDeps,
  accountId: string,
  seen: string | null,
  lock: AbortSignal,
): Promise<Grant> {
  const { accounts, cipher, tiktok } = deps;
  const account = await accounts.findById(accountId);
  if (!account) throw new AccountDeletedError(accountId);
  if (!account.refresh_token_enc || account.status === 'not_connected')
    throw new AccountNeedsReconnectError(accountId);
  // Another process refreshed (or the person reconnected) since the caller read the tokens.
  if (seen !== null && account.refresh_token_enc !== seen && account.status === 'connected')
    return usableGrant(cipher, accountId, account);
  const used = account.refresh_token_enc;
  // This process stalled past the lock's lease and another took it: that one refreshes.
  lock.throwIfAborted();
  let tokens: TikTokTokenSet;
  try {
    tokens = await tiktok.refreshToken(cipher.decrypt(used));
  } catch (error) {
    if (error instanceof TikTokApiError && (error.kind === 'permanent' || error.kind === 'auth')) {
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
      return usableGrant(cipher, accountId, await accounts.findById(accountId));
    }
    throw error;
  }
  const update = tokenUpdateFrom(cipher, tokens, deps.now());
  if (await accounts.storeRefreshedTokens(accountId, used, update))
    return { accessToken: tokens.accessToken, refreshTokenEnc: update.refreshTokenEnc };
  // A reconnect stored a newer grant while TikTok answered: that one is the account's now.
  return usableGrant(cipher, accountId, await accounts.findById(accountId));
}

/**
 * Refreshes the account's tokens unless they changed since the caller saw the refresh token
 * `seen` (null: refresh in any case), and returns the grant to use. One refresh per account at a
 * time across all processes, under a lock row; a waiter takes what the holder stored.
 */
async function refreshAcrossProcesses(
  deps: TokenRefreshDeps,
  accountId: string,
  seen: string | null,
): Promise<Grant> {
  const { accounts, lockMs } = deps;
  const deadline = Date.now() + deps.lockWaitMs;
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
        return await refreshAtTikTok(deps, accountId, seen, heartbeat.signal);
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
      await sleep(deps.lockPollMs);
    }
    const account = await accounts.findById(accountId);
    if (account?.status === 'reconnect_needed') throw new AccountNeedsReconnectError(accountId);
    const grant = usableGrant(deps.cipher, accountId, account);
    if (seen !== null && grant.refreshTokenEnc !== seen) return grant;
    // The other process failed (TikTok unreachable): try ourselves.
  }
}

/**
 * Where an account's tokens get refreshed: `refresh(accountId, seen)` returns the grant to use.
 * Concurrent refreshes of one account in this process share one request.
 */
export function createTokenRefresher(deps: TokenRefreshDeps) {
  const inFlight = new Map<string, Promise<Grant>>();

  return async function refresh(accountId: string, seen: string | null): Promise<Grant> {
    const running = inFlight.get(accountId);
    if (running) return running;
    const task = refreshAcrossProcesses(deps, accountId, seen);
    inFlight.set(accountId, task);
    try {
      return await task;
    } finally {
      inFlight.delete(accountId);
    }
  };
}
