import type { TokenCipher } from '../../lib/token-cipher.ts';
import type { TikTokClient, TikTokTokenSet } from '../../tiktok/tiktok-client.ts';
import { TikTokApiError } from '../../tiktok/tiktok-error.ts';
import type { AccountRepository, TokenUpdate } from './repository.ts';

/** Refresh this long before expiry, so a publish never starts with a token about to die. */
export const REFRESH_AHEAD_MS = 10 * 60 * 1000;

export class AccountNeedsReconnectError extends Error {
  override name = 'AccountNeedsReconnectError';
  constructor(readonly accountId: string) {
    super(`TikTok account ${accountId} must be reconnected`);
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
 * Hands out fresh access tokens. Refreshes ahead of expiry and after a 401, always storing the
 * rotated refresh token (TikTok invalidates the previous one). A refused refresh marks the account
 * 'reconnect_needed'. Concurrent refreshes of one account in this process share one request.
 */
export function createTokenService(deps: {
  accounts: AccountRepository;
  cipher: TokenCipher;
  tiktok: TikTokClient;
  now?: () => number;
}) {
  const { accounts, cipher, tiktok } = deps;
  const now = deps.now ?? Date.now;
  const inFlight = new Map<string, Promise<string>>();

  async function refresh(accountId: string): Promise<string> {
    const running = inFlight.get(accountId);
    if (running) return running;
    const task = (async () => {
      const account = await accounts.findById(accountId);
      if (!account?.refresh_token_enc || account.status === 'not_connected')
        throw new AccountNeedsReconnectError(accountId);
      try {
        const tokens = await tiktok.refreshToken(cipher.decrypt(account.refresh_token_enc));
        await accounts.storeRefreshedTokens(accountId, tokenUpdateFrom(cipher, tokens, now()));
        return tokens.accessToken;
      } catch (error) {
        if (
          error instanceof TikTokApiError &&
          (error.kind === 'permanent' || error.kind === 'auth')
        ) {
          await accounts.markReconnectNeeded(accountId);
          throw new AccountNeedsReconnectError(accountId);
        }
        throw error;
      }
    })();
    inFlight.set(accountId, task);
    try {
      return await task;
    } finally {
      inFlight.delete(accountId);
    }
  }

  async function getAccessToken(accountId: string): Promise<string> {
    const account = await accounts.findById(accountId);
    if (!account || account.status !== 'connected' || !account.access_token_enc)
      throw new AccountNeedsReconnectError(accountId);
    const expiresAt = account.access_token_expires_at?.getTime() ?? 0;
    if (expiresAt - now() > REFRESH_AHEAD_MS) return cipher.decrypt(account.access_token_enc);
    return refresh(accountId);
  }

  return {
    getAccessToken,
    refresh,

    /** Runs `call` with a fresh token; on a 401 it refreshes once and tries again. */
    async withAccessToken<TResult>(
      accountId: string,
      call: (accessToken: string) => Promise<TResult>,
    ): Promise<TResult> {
      const token = await getAccessToken(accountId);
      try {
        return await call(token);
      } catch (error) {
        if (!(error instanceof TikTokApiError) || error.kind !== 'auth') throw error;
        return call(await refresh(accountId));
      }
    },

    /** For the periodic job: refresh every connected account whose token expires soon. */
    async refreshDue(
      withinMs = 3 * REFRESH_AHEAD_MS,
    ): Promise<{ refreshed: number; failed: number }> {
      const due = await accounts.dueForRefresh(new Date(now() + withinMs));
      let refreshed = 0;
      let failed = 0;
      for (const { id } of due) {
        try {
          await refresh(id);
          refreshed++;
        } catch {
          failed++;
        }
      }
      return { refreshed, failed };
    },
  };
}

export type TokenService = ReturnType<typeof createTokenService>;
