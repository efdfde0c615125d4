import type { TokenCipher } from '../../lib/token-cipher.ts';
import type { TikTokTokenSet } from '../../tiktok/tiktok-oauth.ts';
import type { AccountRow, TokenUpdate } from './repository.ts';

/** The columns of an account a grant is read from. */
export type GrantSource = Pick<
  AccountRow,
  'status' | 'access_token_enc' | 'refresh_token_enc' | 'access_token_expires_at'
>;

/**
 * An access token and the stored refresh token (ciphertext) it goes with. Every refresh and
 * reconnect stores a new ciphertext, so it tells whether the tokens changed since they were read.
 */
export interface Grant {
  accessToken: string;
  refreshTokenEnc: string;
}

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

/** The account's stored grant, or why there is none to use. */
export function usableGrant(
  cipher: TokenCipher,
  accountId: string,
  account: GrantSource | undefined,
): Grant {
  if (!account) throw new AccountDeletedError(accountId);
  if (account.status !== 'connected' || !account.access_token_enc || !account.refresh_token_enc)
    throw new AccountNeedsReconnectError(accountId);
  return {
    accessToken: cipher.decrypt(account.access_token_enc),
    refreshTokenEnc: account.refresh_token_enc,
  };
}
