import type { PendingConnection } from '@cadence/shared/schemas/account';
import { AppError } from '../../lib/app-error.ts';
import type { TokenCipher } from '../../lib/token-cipher.ts';
import { requireOwnedAccount } from './account-access.ts';
import { ConnectError, type ConnectionStore } from './connection-store.ts';
import type {
  AccountRepository,
  AuthorisedProfile,
  PendingConnectionRow,
  TokenUpdate,
} from './repository.ts';

function pendingGone(message: string): AppError {
  return new AppError('not_found', message, { id: 'accounts.errors.pendingGone' });
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

/**
 * The 'you authorised another account' choice: what it shows, keeping the grant on the card,
 * or cancelling it (also what an unanswered one comes to once past its time).
 */
export function createPendingConnections(
  deps: { accounts: AccountRepository; cipher: TokenCipher },
  store: ConnectionStore,
) {
  const { accounts, cipher } = deps;

  async function requirePending(userId: string, id: string): Promise<PendingConnectionRow> {
    const pending = await accounts.consumePendingConnection(userId, id, new Date());
    // Someone else's, expired, already answered or never made: the same 404.
    if (!pending) throw pendingGone('No such pending connection');
    return pending;
  }

  return {
    /** The warning's facts: which TikTok account was authorised for which card. */
    async pendingConnection(userId: string, id: string): Promise<PendingConnection> {
      const pending = await accounts.findPendingConnection(userId, id, new Date());
      if (!pending) throw pendingGone('No such pending connection');
      const [card, holder] = await Promise.all([
        requireOwnedAccount(accounts, userId, pending.account_id),
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
          accountId: await store.storeConnection(
            userId,
            pending.account_id,
            profile,
            pendingTokens(pending),
          ),
        };
      } catch (error) {
        await store.revokeUnlessInUse(
          cipher.decrypt(pending.access_token_enc),
          pending.open_id,
          'kept connection not stored',
        );
        if (error instanceof ConnectError) throw pendingGone('The account was deleted meanwhile');
        throw error;
      }
    },

    /** Cancel: nothing changes on the cards, and the grant just issued is revoked. Once. */
    async cancelPendingConnection(userId: string, id: string): Promise<void> {
      const pending = await requirePending(userId, id);
      await store.revokeUnlessInUse(
        cipher.decrypt(pending.access_token_enc),
        pending.open_id,
        'cancelled connection',
      );
    },

    /** For the purge job: unanswered warnings past their time end like a cancel. */
    async purgeExpiredPendingConnections(now = new Date()): Promise<number> {
      const expired = await accounts.purgeExpiredPendingConnections(now);
      for (const pending of expired) {
        await store.revokeUnlessInUse(
          cipher.decrypt(pending.access_token_enc),
          pending.open_id,
          'expired pending connection',
        );
      }
      return expired.length;
    },
  };
}
