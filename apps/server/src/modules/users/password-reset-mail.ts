import { PASSWORD_RESET_LINK_SECONDS, type PasswordResetRequest } from '../../auth/auth.ts';
import { passwordResetMail } from '../../mail/templates.ts';
import type { MailService } from '../mail/service.ts';

/**
 * Reset mails one address receives per hour, whoever asks and from wherever: the per-IP limit on
 * the route stops one client, this stops many clients flooding one person's mailbox. Requests
 * beyond it get the usual answer and no mail.
 */
export const RESET_MAILS_PER_ADDRESS_PER_HOUR = 3;

/** The reset page of the web app, with the link's single-use token. */
export function passwordResetLink(publicUrl: string, token: string): string {
  return `${publicUrl}/auth/reset?token=${encodeURIComponent(token)}`;
}

/** What better-auth calls with a new reset token: the mail in the account's language, queued. */
export function createPasswordResetMailer({
  mail,
  publicUrl,
}: {
  mail: Pick<MailService, 'queueWithinHourlyLimit'>;
  publicUrl: string;
}) {
  return async ({ user, token }: PasswordResetRequest): Promise<void> => {
    await mail.queueWithinHourlyLimit(
      {
        kind: 'password-reset',
        userId: user.id,
        to: user.email,
        language: user.preferredLanguage,
        content: passwordResetMail(user.preferredLanguage, {
          name: user.name,
          link: passwordResetLink(publicUrl, token),
          validForMinutes: PASSWORD_RESET_LINK_SECONDS / 60,
        }),
      },
      RESET_MAILS_PER_ADDRESS_PER_HOUR,
    );
  };
}
