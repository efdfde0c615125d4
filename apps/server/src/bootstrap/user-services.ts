import { createAuth } from '../auth/auth.ts';
import type { AppContext } from '../context.ts';
import { enqueueDataExport } from '../modules/data-rights/export-jobs.ts';
import { createDataExportRepository } from '../modules/data-rights/export-repository.ts';
import { createDataExportService } from '../modules/data-rights/export-service.ts';
import { createDataRightsRepository } from '../modules/data-rights/repository.ts';
import { createDataRightsService } from '../modules/data-rights/service.ts';
import { createEmailChangeService } from '../modules/users/email-change.ts';
import {
  createEmailVerification,
  createEmailVerificationMailer,
} from '../modules/users/email-verification.ts';
import { createPasswordResetMailer } from '../modules/users/password-reset-mail.ts';
import { createUserRepository } from '../modules/users/repository.ts';
import type { Wiring } from './wiring.ts';

/** Sign-in (better-auth) and what a person does with their own account: address, data, deletion. */
export function createUserServices(
  { config, logger, database, boss }: Wiring,
  { mail, accounts, storage }: Pick<AppContext, 'mail' | 'accounts' | 'storage'>,
): Pick<
  AppContext,
  'auth' | 'users' | 'emailChange' | 'emailVerification' | 'dataRights' | 'dataExports'
> {
  const auth = createAuth({
    db: database.db,
    secret: config.sessionSecret,
    publicUrl: config.publicUrl,
    logger,
    sendPasswordReset: createPasswordResetMailer({ mail, publicUrl: config.publicUrl }),
    requireEmailVerification: config.requireEmailVerification,
    sendEmailVerification: createEmailVerificationMailer({ mail, publicUrl: config.publicUrl }),
  });
  return {
    auth,
    users: createUserRepository(database.db),
    emailChange: createEmailChangeService({
      users: createUserRepository(database.db),
      mail,
      publicUrl: config.publicUrl,
      contactEmail: config.publicInfo.contactEmail,
      logger,
    }),
    emailVerification: createEmailVerification({
      auth,
      users: createUserRepository(database.db),
      mail,
      required: config.requireEmailVerification,
    }),
    dataRights: createDataRightsService({
      repository: createDataRightsRepository(database.db),
      accounts,
      storage,
      users: createUserRepository(database.db),
      mail,
      contactEmail: config.publicInfo.contactEmail,
      logger,
    }),
    dataExports: createDataExportService({
      repository: createDataExportRepository(database.db),
      storage,
      users: createUserRepository(database.db),
      mail,
      enqueue: (exportId) => enqueueDataExport(boss, exportId),
      publicUrl: config.publicUrl,
      logger,
    }),
  };
}
