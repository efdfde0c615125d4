import type { Me } from '@cadence/shared/schemas/user';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../../lib/error-text.ts';
import { usePublicConfig } from '../../../lib/public-config.ts';
import { useResendVerificationEmail } from '../api/email-verification.ts';

/**
 * REQUIRE_EMAIL_VERIFICATION: until the address is confirmed, a banner under the header says why
 * publishing is refused, with a 'resend' link (the server limits it per hour).
 */
export function EmailVerificationBanner({ me }: { me: Me }) {
  const { t } = useTranslation();
  const config = usePublicConfig();
  const resend = useResendVerificationEmail();
  const errorText = useErrorText('errors.internal');
  if (!config.data?.requireEmailVerification || me.emailVerified) return null;
  return (
    <div className="border-b border-amber-200 bg-amber-50 text-amber-900">
      <div
        role="status"
        className="mx-auto flex w-full max-w-6xl flex-wrap items-center gap-x-3 gap-y-1 px-4 py-3 text-sm sm:px-6"
      >
        <p className="min-w-0 break-words">
          {t('settings.verification.banner', { email: me.email })}
        </p>
        {resend.isSuccess ? (
          <p className="font-semibold">{t('settings.verification.resent')}</p>
        ) : (
          <button
            type="button"
            className="font-semibold underline underline-offset-2 hover:text-amber-950 disabled:opacity-60"
            disabled={resend.isPending}
            onClick={() => resend.mutate()}
          >
            {t('settings.verification.resend')}
          </button>
        )}
        {resend.isError && (
          <p className="w-full font-semibold text-red-800">{errorText(resend.error)}</p>
        )}
      </div>
    </div>
  );
}
