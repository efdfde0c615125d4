import { isAPIError } from 'better-auth/api';
import {
  EMAIL_VERIFICATION_LINK_SECONDS,
  type Auth,
  type EmailVerificationRequest,
} from '../../auth/auth.ts';
import { AppError } from '../../lib/app-error.ts';
import { emailVerificationMail } from '../../mail/templates.ts';
import type { MailService } from '../mail/service.ts';
import type { UserRepository } from './repository.ts';

/** Confirmation mails one address receives per hour (the banner's 'resend' included). */
export const VERIFICATION_MAILS_PER_ADDRESS_PER_HOUR = 3;

/** What better-auth calls with a confirmation token: the mail in the account's language. */
export function createEmailVerificationMailer({
  mail,
  publicUrl,
}: {
  mail: Pick<MailService, 'queueWithinHourlyLimit'>;
  publicUrl: string;
}) {
  return async ({ user, token }: EmailVerificationRequest): Promise<void> => {
    await mail.queueWithinHourlyLimit(
      {
        kind: 'email-verification',
        userId: user.id,
        to: user.email,
        language: user.preferredLanguage,
        content: emailVerificationMail(user.preferredLanguage, {
          name: user.name,
          link: `${publicUrl}/verify-email?token=${encodeURIComponent(token)}`,
          validForMinutes: EMAIL_VERIFICATION_LINK_SECONDS / 60,
        }),
      },
      VERIFICATION_MAILS_PER_ADDRESS_PER_HOUR,
    );
  };
}

/**
 * REQUIRE_EMAIL_VERIFICATION: publishing waits for a confirmed address. `resend` is the banner's
 * link (limited per address); `confirm` opens a link (better-auth checks its signed token).
 */
export function createEmailVerification({
  auth,
  users,
  mail,
  required,
}: {
  auth: Pick<Auth, 'api'>;
  users: Pick<UserRepository, 'findById'>;
  mail: Pick<MailService, 'countRecent'>;
  required: boolean;
}) {
  return {
    required,

    /** preValidation check of the publishing routes: a translated 403 until verified. */
    async assertCanPublish(userId: string): Promise<void> {
      if (!required) return;
      const user = await users.findById(userId);
      if (user && !user.emailVerified) {
        throw new AppError('forbidden', 'Confirm your email address first', {
          _: 'settings.errors.emailNotVerified',
        });
      }
    },

    async resend(userId: string): Promise<void> {
      const user = await users.findById(userId);
      if (!user || user.emailVerified) return;
      const recent = await mail.countRecent('email-verification', user.email, 60 * 60);
      if (recent >= VERIFICATION_MAILS_PER_ADDRESS_PER_HOUR) {
        throw new AppError('rate_limited', 'Too many confirmation mails', {
          _: 'settings.errors.tooManyVerificationMails',
        });
      }
      await auth.api.sendVerificationEmail({ body: { email: user.email } });
    },

    async confirm(token: string): Promise<void> {
      try {
        await auth.api.verifyEmail({ query: { token } });
      } catch (error) {
        if (!isAPIError(error) || error.statusCode >= 500) throw error;
        throw new AppError('validation_failed', 'Bad verification link', {
          token: 'settings.errors.emailLinkInvalid',
        });
      }
    },
  };
}

export type EmailVerification = ReturnType<typeof createEmailVerification>;
