import { createHash, randomBytes } from 'node:crypto';
import {
  accountSettingsSchema,
  normaliseUsername,
  requestedScopes,
  type Account,
  type AccountSettings,
  type ConnectionErrorKind,
  type CreatorInfo,
  type PendingConnection,
} from '@cadence/shared/schemas/account';
import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../../lib/app-error.ts';
import type { TokenCipher } from '../../lib/token-cipher.ts';
import type { TikTokClient, TikTokTokenSet } from '../../tiktok/tiktok-client.ts';
import { TikTokApiError } from '../../tiktok/tiktok-error.ts';
import type {
  AccountRepository,
  AccountRow,
  AuthorisedProfile,
  PendingConnectionRow,
  TokenUpdate,
} from './repository.ts';
import { createCreatorInfoReader } from './creator-info.ts';

import { AccountNeedsReconnectError, tokenUpdateFrom, type TokenService } from './token-service.ts';

// The schedules module asks creator_info at submit with the same memory of TikTok's answers.
export {
  createCreatorInfoReader,
  type CreatorAccount,
  type ReadCreatorInfo,
} from './creator-info.ts';

export const OAUTH_STATE_TTL_MS = 10 * 60 * 1000;
/** How long the 'you authorised another account' choice waits for an answer. */
export const PENDING_CONNECTION_TTL_MS = 10 * 60 * 1000;

export type ConnectOutcome =
  { kind: 'connected'; accountId: string } | { kind: 'mismatch'; pendingId: string };

/** Per account: how many posts wait and when the next one is due (supplied by the posts module). */
export interface AccountPostStats {
  pendingByAccount(userId: string): Promise<Map<string, { count: number; nextDueAt: Date | null }>>;
  /** Cancels pending posts of an account about to be deleted; returns how many. */
  cancelPendingForAccount(userId: string, accountId: string): Promise<number>;
}

export class ConnectError extends Error {
  override name = 'ConnectError';
  constructor(
    readonly kind: ConnectionErrorKind,
    message: string,
  ) {
    super(message);
  }
}

function hashState(state: string): string {
  return createHash('sha256').update(state).digest('hex');
}

function reconnectNeeded(): AppError {
  return new AppError('conflict', 'Reconnect this account', {
    accountId: 'accounts.errors.reconnectNeeded',
  });
}

export interface AccountServiceDeps {
  accounts: AccountRepository;
  tokens: TokenService;
  tiktok: TikTokClient;
  cipher: TokenCipher;
  postStats: AccountPostStats;
  redirectUri: string;
  logger: FastifyBaseLogger;
  /** Told once an account is connected (analytics queues its first sync); failures are logged. */
  onConnected?: (accountId: string) => Promise<void>;
}

export function createAccountService(deps: AccountServiceDeps) {
  const { accounts, tokens, tiktok, cipher, postStats, redirectUri, logger } = deps;
  const readCreatorInfo = createCreatorInfoReader({ accounts, tokens, tiktok });

  function toAccount(row: AccountRow, stats?: { count: number; nextDueAt: Date | null }): Account {
    return {
      id: row.id,
      username: row.username,
      status: row.status,
      displayName: row.display_name,
      avatarUrl: row.avatar_url,
      openId: row.open_id,
      scopes: row.scopes,
      canPublish: row.scopes.includes('video.publish'),
      scheduledCount: stats?.count ?? 0,
      nextPostAt: stats?.nextDueAt?.toISOString() ?? null,
      settings: accountSettingsSchema.parse({
        defaultPrivacyLevel: row.default_privacy_level,
        allowComment: row.allow_comment,
        allowDuet: row.allow_duet,
        allowStitch: row.allow_stitch,
      }),
      connectedAt: row.connected_at?.toISOString() ?? null,
      createdAt: row.created_at.toISOString(),
    };
  }

  async function requireOwned(userId: string, id: string): Promise<AccountRow> {
    const row = await accounts.findForUser(userId, id);
    // Someone else's account and a missing one look the same: 404, nothing revealed.
    if (!row) throw new AppError('not_found', 'No such TikTok account');
    return row;
  }

  /** Who TikTok says the grant is for (the username only with `user.info.profile`). */
  async function authorisedProfile(tokenSet: TikTokTokenSet): Promise<AuthorisedProfile> {
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
   * Ends a grant at TikTok, best effort. TikTok's revoke disconnects the app from that TikTok
   * user altogether, so a grant whose TikTok user some card still holds is left alone: revoking
   * it would disconnect that card too.
   */
  async function revokeUnlessInUse(accessToken: string, openId: string, context: string) {
    try {
      if (await accounts.openIdInUse(openId)) return;
      await tiktok.revokeToken(accessToken);
    } catch (error) {
      logger.warn({ err: error }, `TikTok token revocation failed (${context})`);
    }
  }

  /**
   * Stores a grant on the account it belongs to and returns that account's id: the card the
   * person clicked Connect on, or the card already holding this TikTok user (same open_id), which
   * is updated instead of getting a duplicate. The card takes TikTok's username, unless another
   * card of a different TikTok user already has it (TikTok names change hands): then it keeps its
   * own. A never-connected card that merely named this TikTok user is dropped, as it duplicates
   * the card now connected. Tokens of another TikTok user that the card held are revoked.
   */
  async function storeConnection(
    userId: string,
    clickedId: string,
    profile: AuthorisedProfile,
    tokenUpdate: TokenUpdate,
  ): Promise<string> {
    const { accountId, replaced } = await accounts.transaction(async (trx) => {
      const clicked = await trx.findById(clickedId);
      if (!clicked) throw new ConnectError('connection', 'The account was deleted meanwhile');
      const existing = await trx.findByOpenId(userId, profile.openId);
      const target = existing ?? clicked;
      const unused = (card: AccountRow) =>
        card.id !== target.id && card.status === 'not_connected' && card.open_id === null;
      if (unused(clicked)) await trx.delete(userId, clicked.id);

      let username = target.username;
      if (profile.username !== null) {
        const holder = await trx.findByUsername(userId, profile.username);
        if (!holder || holder.id === target.id) username = profile.username;
        else if (unused(holder)) {
          await trx.delete(userId, holder.id);
          username = profile.username;
        }
      }
      await trx.markConnected(target.id, { ...profile, username }, tokenUpdate);
      // The card's previous grant was another TikTok user's: it is no longer anyone's.
      const replacedGrant =
        target.open_id !== null && target.open_id !== profile.openId && target.access_token_enc
          ? { accessTokenEnc: target.access_token_enc, openId: target.open_id }
          : null;
      return { accountId: target.id, replaced: replacedGrant };
    });
    if (replaced) {
      await revokeUnlessInUse(
        cipher.decrypt(replaced.accessTokenEnc),
        replaced.openId,
        'replaced by a reconnection',
      );
    }
    await deps.onConnected?.(accountId).catch((error: unknown) => {
      logger.warn({ err: error, accountId }, 'after-connection hook failed');
    });
    return accountId;
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

  async function requirePending(userId: string, id: string): Promise<PendingConnectionRow> {
    const pending = await accounts.consumePendingConnection(userId, id, new Date());
    // Someone else's, expired, already answered or never made: the same 404.
    if (!pending)
      throw new AppError('not_found', 'No such pending connection', {
        id: 'accounts.errors.pendingGone',
      });
    return pending;
  }

  function pendingTokens(pending: PendingConnectionRow): TokenUpdate {
    return {
      accessTokenEnc: pending.access_token_enc,
      refreshTokenEnc: pending.refresh_token_enc,
      accessTokenExpiresAt: pending.access_token_expires_at,
      refreshTokenExpiresAt: pending.refresh_token_expires_at,
      scopes: pending.scopes,
    };
  }

  return {
    async list(userId: string): Promise<Account[]> {
      const [rows, stats] = await Promise.all([
        accounts.listForUser(userId),
        postStats.pendingByAccount(userId),
      ]);
      return rows.map((row) => toAccount(row, stats.get(row.id)));
    },

    async get(userId: string, id: string): Promise<Account> {
      const row = await requireOwned(userId, id);
      const stats = await postStats.pendingByAccount(userId);
      return toAccount(row, stats.get(row.id));
    },

    async add(userId: string, username: string): Promise<Account> {
      if (await accounts.usernameTaken(userId, username)) {
        throw new AppError('conflict', 'This username is already in your accounts', {
          username: 'accounts.errors.duplicate',
        });
      }
      try {
        return toAccount(await accounts.insert(userId, username));
      } catch (error) {
        // Two tabs adding the same name at once: the unique index decides.
        if (await accounts.usernameTaken(userId, username)) {
          throw new AppError('conflict', 'This username is already in your accounts', {
            username: 'accounts.errors.duplicate',
          });
        }
        throw error;
      }
    },

    /**
     * Cancels the account's pending posts, revokes its grant at TikTok and deletes it. Its posts
     * stay in the creator's history, detached from it, under the username they were made with.
     */
    async remove(userId: string, id: string): Promise<{ cancelledPosts: number }> {
      const row = await requireOwned(userId, id);
      const cancelledPosts = await postStats.cancelPendingForAccount(userId, id);
      if (row.access_token_enc) {
        // Best effort: the account goes even if TikTok is unreachable; the token then expires on its own.
        await tiktok.revokeToken(cipher.decrypt(row.access_token_enc)).catch((error: unknown) => {
          logger.warn({ err: error, accountId: id }, 'TikTok token revocation failed');
        });
      }
      await accounts.delete(userId, id);
      return { cancelledPosts };
    },

    async updateSettings(userId: string, id: string, settings: AccountSettings): Promise<Account> {
      await requireOwned(userId, id);
      await accounts.updateSettings(userId, id, settings);
      return this.get(userId, id);
    },

    /** Builds TikTok's authorize URL with a single-use state bound to this user and account, and PKCE. */
    async startConnect(userId: string, id: string): Promise<string> {
      const card = await requireOwned(userId, id);
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

      let tokenSet: TikTokTokenSet;
      try {
        tokenSet = await tiktok.exchangeCode({
          code: input.code,
          redirectUri,
          codeVerifier: cipher.decrypt(stored.code_verifier_enc),
        });
      } catch (error) {
        // TikTok refusing the code (invalid_grant: made up, reused or expired, which anyone can send
        // to the callback) is the client's doing; anything else (a wrong client secret, a redirect
        // URI TikTok no longer knows, TikTok or the network failing) is the operator's.
        const refused = error instanceof TikTokApiError && error.code === 'invalid_grant';
        logger[refused ? 'warn' : 'error'](
          { err: error, accountId: stored.account_id },
          'TikTok token exchange failed',
        );
        throw new ConnectError('token', 'Token exchange failed');
      }
      try {
        const profile = await authorisedProfile(tokenSet);
        const clicked = await accounts.findById(stored.account_id);
        if (!clicked) throw new ConnectError('connection', 'The account was deleted meanwhile');
        const tokenUpdate = tokenUpdateFrom(cipher, tokenSet);
        if (authorisedAnother(clicked, profile)) {
          // Nothing changes before the person has seen which account they authorised.
          const pending = await accounts.insertPendingConnection({
            userId: stored.user_id,
            accountId: clicked.id,
            profile,
            tokens: tokenUpdate,
            expiresAt: new Date(Date.now() + PENDING_CONNECTION_TTL_MS),
          });
          return { kind: 'mismatch', pendingId: pending.id };
        }
        const accountId = await storeConnection(stored.user_id, clicked.id, profile, tokenUpdate);
        return { kind: 'connected', accountId };
      } catch (error) {
        // TikTok issued a grant we will not keep: end it rather than leave it live at TikTok.
        await revokeUnlessInUse(tokenSet.accessToken, tokenSet.openId, 'failed connection');
        if (error instanceof ConnectError) throw error;
        logger.error(
          { err: error, accountId: stored.account_id },
          'TikTok user info or storing the connection failed',
        );
        throw new ConnectError('token', 'Connection not stored');
      }
    },

    /** The warning's facts: which TikTok account was authorised for which card. */
    async pendingConnection(userId: string, id: string): Promise<PendingConnection> {
      const pending = await accounts.findPendingConnection(userId, id, new Date());
      if (!pending)
        throw new AppError('not_found', 'No such pending connection', {
          id: 'accounts.errors.pendingGone',
        });
      const [card, holder] = await Promise.all([
        requireOwned(userId, pending.account_id),
        accounts.findByOpenId(userId, pending.open_id),
      ]);
      return {
        id: pending.id,
        accountId: card.id,
        cardUsername: card.username,
        authorisedUsername: pending.username,
        authorisedDisplayName: pending.display_name,
        holderUsername: holder && holder.id !== card.id ? holder.username : null,
        expiresAt: pending.expires_at.toISOString(),
      };
    },

    /** Keep: the grant goes on the card after all (renamed to the authorised account). Once. */
    async keepPendingConnection(userId: string, id: string): Promise<{ accountId: string }> {
      const pending = await requirePending(userId, id);
      const profile: AuthorisedProfile = {
        openId: pending.open_id,
        username: pending.username,
        displayName: pending.display_name,
        avatarUrl: pending.avatar_url,
      };
      try {
        return {
          accountId: await storeConnection(
            userId,
            pending.account_id,
            profile,
            pendingTokens(pending),
          ),
        };
      } catch (error) {
        await revokeUnlessInUse(
          cipher.decrypt(pending.access_token_enc),
          pending.open_id,
          'kept connection not stored',
        );
        if (error instanceof ConnectError)
          throw new AppError('not_found', 'The account was deleted meanwhile', {
            id: 'accounts.errors.pendingGone',
          });
        throw error;
      }
    },

    /** Cancel: nothing changes on the cards, and the grant just issued is revoked. Once. */
    async cancelPendingConnection(userId: string, id: string): Promise<void> {
      const pending = await requirePending(userId, id);
      await revokeUnlessInUse(
        cipher.decrypt(pending.access_token_enc),
        pending.open_id,
        'cancelled connection',
      );
    },

    /** For the purge job: unanswered warnings past their time end like a cancel. */
    async purgeExpiredPendingConnections(now = new Date()): Promise<number> {
      const expired = await accounts.purgeExpiredPendingConnections(now);
      for (const pending of expired) {
        await revokeUnlessInUse(
          cipher.decrypt(pending.access_token_enc),
          pending.open_id,
          'expired pending connection',
        );
      }
      return expired.length;
    },

    async creatorInfo(userId: string, id: string): Promise<CreatorInfo> {
      const row = await requireOwned(userId, id);
      if (row.status === 'reconnect_needed') throw reconnectNeeded();
      if (row.status !== 'connected')
        throw new AppError('conflict', 'Connect this account first', {
          accountId: 'accounts.errors.notConnected',
        });
      try {
        return await readCreatorInfo(row);
      } catch (error) {
        if (error instanceof AccountNeedsReconnectError) throw reconnectNeeded();
        if (error instanceof TikTokApiError)
          throw new AppError('unavailable', `TikTok: ${error.code}`);
        throw error;
      }
    },
  };
}

export type AccountService = ReturnType<typeof createAccountService>;
