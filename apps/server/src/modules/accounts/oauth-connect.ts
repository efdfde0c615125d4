import { createHash, randomBytes } from 'node:crypto';
import { normaliseUsername, requestedScopes } from '@cadence/shared/schemas/account';
import type { FastifyBaseLogger } from 'fastify';
import type { TokenCipher } from '../../lib/token-cipher.ts';
import type { TikTokClient } from '../../tiktok/tiktok-client.ts';
import type { TikTokTokenSet } from '../../tiktok/tiktok-oauth.ts';
import { TikTokApiError } from '../../tiktok/tiktok-error.ts';
import { requireOwnedAccount } from './account-access.ts';
import { tokenUpdateFrom } from './account-grant.ts';
import { ConnectError, type ConnectionStore } from './connection-store.ts';
import type { AccountRepository, AccountRow, AuthorisedProfile } from './repository.ts';

export const OAUTH_STATE_TTL_MS = 10 * 60 * 1000;
/** How long the 'you authorised another account' choice waits for an answer. */
export const PENDING_CONNECTION_TTL_MS = 10 * 60 * 1000;

export type ConnectOutcome =
  { kind: 'connected'; accountId: string } | { kind: 'mismatch'; pendingId: string };

export interface OAuthConnectDeps {
  accounts: AccountRepository;
  tiktok: TikTokClient;
  cipher: TokenCipher;
  redirectUri: string;
  logger: FastifyBaseLogger;
}

function hashState(state: string): string {
  return createHash('sha256').update(state).digest('hex');
}

/** Who TikTok says the grant is for (the username only with `user.info.profile`). */
async function authorisedProfile(
  tiktok: TikTokClient,
  tokenSet: TikTokTokenSet,
): Promise<AuthorisedProfile> {
  const fields = tokenSet.scopes.includes('user.info.profile')
    ? (['open_id', 'avatar_url', 'display_name', 'username'] as const)
    : (['open_id', 'avatar_url', 'display_name'] as const);
  const user = await tiktok.getUserInfo(tokenSet.accessToken, fields);
  return {
    openId: tokenSet.openId,
    username: user.username === undefined ? null : normaliseUsername(user.username),
    displayName: user.displayName ?? null,
    avatarUrl: user.avatarUrl ?? null,
  };
}

/**
 * True when the grant is for another TikTok account than the card's: a connected card is
 * another account when the open_id differs; a never-connected one when the username it was
 * given is not TikTok's (unknown without `user.info.profile`: then it is taken as given).
 */
function authorisedAnother(card: AccountRow, profile: AuthorisedProfile): boolean {
  if (card.open_id !== null) return card.open_id !== profile.openId;
  return (
    profile.username !== null &&
    profile.username.toLowerCase() !== normaliseUsername(card.username).toLowerCase()
  );
}

/** The OAuth round trip with TikTok: the authorize URL out, the redirect back in. */
export function createOAuthConnect(deps: OAuthConnectDeps, store: ConnectionStore) {
  const { accounts, tiktok, cipher, redirectUri, logger } = deps;

  async function exchangeCode(code: string, codeVerifierEnc: string, accountId: string) {
    try {
      return await tiktok.exchangeCode({
        code,
        redirectUri,
        codeVerifier: cipher.decrypt(codeVerifierEnc),
      });
    } catch (error) {
      // TikTok refusing the code (invalid_grant: made up, reused or expired, which anyone can send
      // to the callback) is the client's doing; anything else (a wrong client secret, a redirect
      // URI TikTok no longer knows, TikTok or the network failing) is the operator's.
      const refused = error instanceof TikTokApiError && error.code === 'invalid_grant';
      logger[refused ? 'warn' : 'error']({ err: error, accountId }, 'TikTok token exchange failed');
      throw new ConnectError('token', 'Token exchange failed');
    }
  }

  /** Connects the clicked card, or holds the grant when it is another TikTok account's. */
  async function placeGrant(
    userId: string,
    clickedId: string,
    tokenSet: TikTokTokenSet,
  ): Promise<ConnectOutcome> {
    const profile = await authorisedProfile(tiktok, tokenSet);
    const clicked = await accounts.findById(clickedId);
    if (!clicked) throw new ConnectError('connection', 'The account was deleted meanwhile');
    const tokenUpdate = tokenUpdateFrom(cipher, tokenSet);
    if (authorisedAnother(clicked, profile)) {
      // Nothing changes before the person has seen which account they authorised.
      const pending = await accounts.insertPendingConnection({
        userId,
        accountId: clicked.id,
        profile,
        tokens: tokenUpdate,
        expiresAt: new Date(Date.now() + PENDING_CONNECTION_TTL_MS),
      });
      return { kind: 'mismatch', pendingId: pending.id };
    }
    const accountId = await store.storeConnection(userId, clicked.id, profile, tokenUpdate);
    return { kind: 'connected', accountId };
  }

  return {
    /** Builds TikTok's authorize URL with a single-use state bound to this user and account, and PKCE. */
    async startConnect(userId: string, id: string): Promise<string> {
      const card = await requireOwnedAccount(accounts, userId, id);
      const state = randomBytes(32).toString('base64url');
      const pkce = tiktok.createPkcePair();
      await accounts.insertState({
        stateHash: hashState(state),
        userId,
        accountId: id,
        codeVerifierEnc: cipher.encrypt(pkce.codeVerifier),
        expiresAt: new Date(Date.now() + OAUTH_STATE_TTL_MS),
      });
      return tiktok.buildAuthorizeUrl({
        redirectUri,
        state,
        codeChallenge: pkce.codeChallenge,
        scopes: requestedScopes,
        usernameHint: card.username,
      });
    },

    /**
     * TikTok's redirect back. The state must exist, be unexpired, and belong to the signed-in user;
     * it is consumed whatever happens next. Connects the card, or, when TikTok's account is not the
     * card's, holds the grant for the person to keep or cancel (`mismatch`).
     */
    async completeConnect(input: {
      userId: string | null;
      state: string | undefined;
      code: string | undefined;
      error: string | undefined;
    }): Promise<ConnectOutcome> {
      if (!input.state) throw new ConnectError('state', 'Missing state');
      const stored = await accounts.consumeState(hashState(input.state));
      if (!stored || stored.expires_at.getTime() < Date.now() || stored.user_id !== input.userId) {
        throw new ConnectError('state', 'Unknown, expired, reused or foreign OAuth state');
      }
      if (input.error || !input.code)
        throw new ConnectError('connection', `TikTok refused: ${input.error ?? 'no code'}`);

      const tokenSet = await exchangeCode(input.code, stored.code_verifier_enc, stored.account_id);
      try {
        return await placeGrant(stored.user_id, stored.account_id, tokenSet);
      } catch (error) {
        // TikTok issued a grant we will not keep: end it rather than leave it live at TikTok.
        await store.revokeUnlessInUse(tokenSet.accessToken, tokenSet.openId, 'failed connection');
        if (error instanceof ConnectError) throw error;
        logger.error(
          { err: error, accountId: stored.account_id },
          'TikTok user info or storing the connection failed',
        );
        throw new ConnectError('token', 'Connection not stored');
      }
    },
  };
}
