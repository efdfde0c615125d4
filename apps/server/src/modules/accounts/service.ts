import type { Account, AccountSettings, CreatorInfo } from '@cadence/shared/schemas/account';
import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../../lib/app-error.ts';
import type { TokenCipher } from '../../lib/token-cipher.ts';
import type { TikTokClient } from '../../tiktok/tiktok-client.ts';
import { TikTokApiError } from '../../tiktok/tiktok-error.ts';
import { requireOwnedAccount } from './account-access.ts';
import { AccountNeedsReconnectError } from './account-grant.ts';
import { toAccount } from './account-view.ts';
import { createConnectionStore } from './connection-store.ts';
import { createCreatorInfoReader } from './creator-info.ts';
import { createOAuthConnect } from './oauth-connect.ts';
import { createPendingConnections } from './pending-connections.ts';
import type { AccountRepository } from './repository.ts';
import type { TokenService } from './token-service.ts';

// The schedules module asks creator_info at submit with the same memory of TikTok's answers.
export {
  createCreatorInfoReader,
  type CreatorAccount,
  type ReadCreatorInfo,
} from './creator-info.ts';

/** Per account: how many posts wait and when the next one is due (supplied by the posts module). */
export interface AccountPostStats {
  pendingByAccount(userId: string): Promise<Map<string, { count: number; nextDueAt: Date | null }>>;
  /** Cancels pending posts of an account about to be deleted; returns how many. */
  cancelPendingForAccount(userId: string, accountId: string): Promise<number>;
}

function reconnectNeeded(): AppError {
  return new AppError('conflict', 'Reconnect this account', {
    accountId: 'accounts.errors.reconnectNeeded',
  });
}

function duplicateUsername(): AppError {
  return new AppError('conflict', 'This username is already in your accounts', {
    username: 'accounts.errors.duplicate',
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

/** The user's account cards: listing, adding, settings, removal and TikTok's creator info. */
function createAccountCards(deps: AccountServiceDeps) {
  const { accounts, tokens, tiktok, cipher, postStats, logger } = deps;
  const readCreatorInfo = createCreatorInfoReader({ accounts, tokens, tiktok });

  async function get(userId: string, id: string): Promise<Account> {
    const row = await requireOwnedAccount(accounts, userId, id);
    const stats = await postStats.pendingByAccount(userId);
    return toAccount(row, stats.get(row.id));
  }

  return {
    async list(userId: string): Promise<Account[]> {
      const [rows, stats] = await Promise.all([
        accounts.listForUser(userId),
        postStats.pendingByAccount(userId),
      ]);
      return rows.map((row) => toAccount(row, stats.get(row.id)));
    },

    get,

    async add(userId: string, username: string): Promise<Account> {
      if (await accounts.usernameTaken(userId, username)) throw duplicateUsername();
      try {
        return toAccount(await accounts.insert(userId, username));
      } catch (error) {
        // Two tabs adding the same name at once: the unique index decides.
        if (await accounts.usernameTaken(userId, username)) throw duplicateUsername();
        throw error;
      }
    },

    /**
     * Cancels the account's pending posts, revokes its grant at TikTok and deletes it. Its posts
     * stay in the creator's history, detached from it, under the username they were made with.
     */
    async remove(userId: string, id: string): Promise<{ cancelledPosts: number }> {
      const row = await requireOwnedAccount(accounts, userId, id);
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
      await requireOwnedAccount(accounts, userId, id);
      await accounts.updateSettings(userId, id, settings);
      return get(userId, id);
    },

    async creatorInfo(userId: string, id: string): Promise<CreatorInfo> {
      const row = await requireOwnedAccount(accounts, userId, id);
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

/** Account cards, connecting them to TikTok, and the choice when another account was authorised. */
export function createAccountService(deps: AccountServiceDeps) {
  const store = createConnectionStore(deps);
  return {
    ...createAccountCards(deps),
    ...createOAuthConnect(deps, store),
    ...createPendingConnections(deps, store),
  };
}

export type AccountService = ReturnType<typeof createAccountService>;
