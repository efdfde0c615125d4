import type { Logger } from 'pino';
import type { MediaStorage } from '../../storage/media-storage.ts';
import type { AccountService } from '../accounts/service.ts';
import type { DataRightsRepository } from './repository.ts';

export interface DataRightsServiceDeps {
  repository: DataRightsRepository;
  accounts: Pick<AccountService, 'remove'>;
  storage: Pick<MediaStorage, 'delete' | 'deleteFolder'>;
  logger: Logger;
}

/**
 * The privacy policy's 'your rights': deleting an account deletes everything of it. The caller
 * has checked the password.
 */
export function createDataRightsService({
  repository,
  accounts,
  storage,
  logger,
}: DataRightsServiceDeps) {
  return {
    /**
     * Every TikTok account goes through the usual removal (its grant revoked at TikTok, its
     * pending posts cancelled), then every stored file (local disk or S3, through the storage
     * interface), then the user row, which takes every other row with it.
     */
    async deleteAccount(userId: string): Promise<{ files: number; accounts: number }> {
      const accountIds = await repository.accountIds(userId);
      for (const id of accountIds) await accounts.remove(userId, id);
      const keys = await repository.storageKeys(userId);
      // Rows first would lose the keys; files first, and a file already gone is no failure.
      for (const key of keys) await storage.delete(key);
      await storage.deleteFolder(`users/${userId}`);
      await repository.deleteUser(userId);
      logger.info({ userId, accounts: accountIds.length, files: keys.length }, 'account deleted');
      return { files: keys.length, accounts: accountIds.length };
    },
  };
}

export type DataRightsService = ReturnType<typeof createDataRightsService>;
