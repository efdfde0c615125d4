import { createHash, randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { AppError } from '../../lib/app-error.ts';
import { emailChangeMail, emailChangedMail } from '../../mail/templates.ts';
import type { MailService } from '../mail/service.ts';
import type { UserRepository } from './repository.ts';

/** A change link works once, for this long. */
export const EMAIL_CHANGE_LINK_SECONDS = 60 * 60;

/** Change links one address receives per hour: a person mistyping twice is fine, a flood is not. */
export const EMAIL_CHANGE_MAILS_PER_ADDRESS_PER_HOUR = 3;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export interface EmailChangeDeps {
  users: Pick<
    UserRepository,
    'findById' | 'emailTaken' | 'savePendingEmail' | 'confirmEmailChange'
  >;
  mail: Pick<MailService, 'queue' | 'queueWithinHourlyLimit'>;
  publicUrl: string;
  contactEmail: string;
  logger: Logger;
}

/**
 * Changing the address of an account: a link goes to the new address, and only opening it
 * changes anything; the old address is told once it has. The answer to a request is the same
 * whether the new address is free or someone else's, so the form cannot tell who has an account:
 * for a taken address a pending change is recorded as usual (the page shows it), with a token
 * nobody ever receives.
 */
export function createEmailChangeService({
  users,
  mail,
  publicUrl,
  contactEmail,
  logger,
}: EmailChangeDeps) {
  return {
    /** The caller has checked the password. `newEmail` is trimmed and lower-cased (schema). */
    async request(userId: string, newEmail: string): Promise<void> {
      const user = await users.findById(userId);
      if (!user) throw new AppError('unauthenticated', 'Sign in first');
      if (user.email === newEmail) {
        throw new AppError('validation_failed', 'Same address', {
          newEmail: 'settings.errors.sameEmail',
        });
      }
      const token = randomBytes(32).toString('base64url');
      await users.savePendingEmail(userId, {
        newEmail,
        tokenHash: hashToken(token),
        expiresAt: new Date(Date.now() + EMAIL_CHANGE_LINK_SECONDS * 1000),
      });
      if (await users.emailTaken(newEmail)) {
        logger.info({ userId }, 'email change to an address in use: no link sent');
        return;
      }
      await mail.queueWithinHourlyLimit(
        {
          kind: 'email-change',
          userId,
          to: newEmail,
          language: user.preferredLanguage,
          content: emailChangeMail(user.preferredLanguage, {
            name: user.name,
            newEmail,
            link: `${publicUrl}/settings/email?token=${encodeURIComponent(token)}`,
            validForMinutes: EMAIL_CHANGE_LINK_SECONDS / 60,
          }),
        },
        EMAIL_CHANGE_MAILS_PER_ADDRESS_PER_HOUR,
      );
    },

    /** Opens a change link: the new address becomes the account's; the old one is told. */
    async confirm(token: string): Promise<{ email: string }> {
      const changed = await users.confirmEmailChange(hashToken(token));
      if (!changed) {
        throw new AppError('validation_failed', 'Bad email change link', {
          token: 'settings.errors.emailLinkInvalid',
        });
      }
      const user = await users.findById(changed.userId);
      if (user) {
        await mail.queue({
          kind: 'email-changed',
          userId: user.id,
          to: changed.oldEmail,
          language: user.preferredLanguage,
          content: emailChangedMail(user.preferredLanguage, {
            name: user.name,
            newEmail: changed.newEmail,
            contact: contactEmail,
          }),
        });
      }
      logger.info({ userId: changed.userId }, 'email address changed');
      return { email: changed.newEmail };
    },
  };
}

export type EmailChangeService = ReturnType<typeof createEmailChangeService>;
