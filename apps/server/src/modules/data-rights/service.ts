import type { Logger } from 'pino';
import { accountDeletedMail } from '../../mail/templates.ts';
import type { MediaStorage } from '../../storage/media-storage.ts';
import type { AccountService } from '../accounts/service.ts';
import type { MailService } from '../mail/service.ts';
import type { UserRepository } from '../users/repository.ts';
import type { DataRightsRepository } from './repository.ts';

export interface DataRightsServiceDeps {
  repository: DataRightsRepository;
  accounts: Pick<AccountService, 'remove'>;
  storage: Pick<MediaStorage, 'delete' | 'deleteFolder'>;
  users: Pick<UserRepository, 'findById'>;
  mail: Pick<MailService, 'queue'>;
  /** The address the goodbye mail names for 'this was not me'. */
  contactEmail: string;
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
  users,
  mail,
  contactEmail,
  logger,
}: DataRightsServiceDeps) {
  return {
    /**
     * Every TikTok account goes through the usual removal (its grant revoked at TikTok, its
     * pending posts cancelled), then every stored file (local disk or S3, through the storage
     * interface), then the user row, which takes every other row with it. Then a goodbye mail, in
     * their language, to the address read before anything went.
     */
    async deleteAccount(userId: string): Promise<{ files: number; accounts: number }> {
      const user = await users.findById(userId);
      const accountIds = await repository.accountIds(userId);
      for (const id of accountIds) await accounts.remove(userId, id);
      const keys = await repository.storageKeys(userId);
      // Rows first would lose the keys; files first, and a file already gone is no failure.
      for (const key of keys) await storage.delete(key);
      await storage.deleteFolder(`users/${userId}`);
      await repository.deleteUser(userId);
      // A request or job that was finishing for them (an upload's last bytes, a render) may have
      // written a file after the sweep above and a row before the user row went: the row left with
      // the user, the file would stay. Swept again now that nothing can add a row for them (a
      // write after this fails on the missing user and removes its own file). The account is gone
      // either way: a failure here is logged, not answered.
      await storage.deleteFolder(`users/${userId}`).catch((error: unknown) => {
        logger.warn({ err: error, userId }, 'deleted account: second sweep of its files failed');
      });
      logger.info({ userId, accounts: accountIds.length, files: keys.length }, 'account deleted');
      if (user) {
        // Queued without a user (the row is gone) and removed once sent (mail/service.ts). The
        // account is deleted whatever happens here: a failure is logged, not answered.
        await mail
          .queue({
            kind: 'account-deleted',
            userId: null,
            to: user.email,
            language: user.preferredLanguage,
            content: accountDeletedMail(user.preferredLanguage, {
              name: user.name,
              contact: contactEmail,
            }),
          })
          .catch((error: unknown) => {
            logger.error({ err: error, userId }, 'deleted account: goodbye mail not queued');
          });
      }
      return { files: keys.length, accounts: accountIds.length };
    },
  };
}

export type DataRightsService = ReturnType<typeof createDataRightsService>;
