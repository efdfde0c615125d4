import type { ConnectionErrorKind } from '@cadence/shared/schemas/account';
import type { FastifyBaseLogger } from 'fastify';
import type { TokenCipher } from '../../lib/token-cipher.ts';
import type { TikTokClient } from '../../tiktok/tiktok-client.ts';
import type {
  AccountRepository,
  AccountRow,
  AuthorisedProfile,
  TokenUpdate,
} from './repository.ts';

export class ConnectError extends Error {
  override name = 'ConnectError';
  constructor(
    readonly kind: ConnectionErrorKind,
    message: string,
  ) {
    super(message);
  }
}

export interface ConnectionStoreDeps {
  accounts: AccountRepository;
  tiktok: TikTokClient;
  cipher: TokenCipher;
  logger: FastifyBaseLogger;
  /** Told once an account is connected (analytics queues its first sync); failures are logged. */
  onConnected?: ((accountId: string) => Promise<void>) | undefined;
}

export type ConnectionStore = ReturnType<typeof createConnectionStore>;

/** Where a TikTok grant ends up: on the account it belongs to, or revoked at TikTok. */
export function createConnectionStore(deps: ConnectionStoreDeps) {
  const { accounts, tiktok, cipher, logger } = deps;

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

  return { revokeUnlessInUse, storeConnection };
}
