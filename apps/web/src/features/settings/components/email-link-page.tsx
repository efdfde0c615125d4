import { confirmEmailChangeSchema } from '@cadence/shared/schemas/user';
import type { TranslationKey } from '@cadence/shared/translation-key';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { LinkPage } from '../../../components/ui/link-page.tsx';
import { useErrorText } from '../../../lib/error-text.ts';
import { useConfirmEmailChange } from '../api/change-email.ts';
import { useVerifyEmail } from '../api/email-verification.ts';

/**
 * The page an email's confirmation link opens, signed in or out. It asks for one click rather
 * than acting on load: mail scanners open links, and must not confirm anything for anyone.
 */
function EmailLinkPage({
  titleKey,
  introKey,
  buttonKey,
  confirm,
}: {
  titleKey: TranslationKey;
  introKey: TranslationKey;
  buttonKey: TranslationKey;
  confirm: {
    mutate: (token: string) => void;
    isPending: boolean;
    isError: boolean;
    error: unknown;
    done: string | null;
  };
}) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const valid = confirmEmailChangeSchema.safeParse({ token }).success;
  const errorText = useErrorText('settings.errors.emailLinkInvalid');

  return (
    <LinkPage title={t(titleKey)}>
      {!valid ? (
        <Alert tone="error">{t('settings.errors.emailLinkInvalid')}</Alert>
      ) : confirm.done !== null ? (
        <>
          <Alert tone="success">{confirm.done}</Alert>
          <Link to="/settings" className="text-sm font-semibold text-brand-700 underline">
            {t('settings.email.backToSettings')}
          </Link>
        </>
      ) : (
        <>
          <p className="text-sm text-slate-700">{t(introKey)}</p>
          {confirm.isError && <Alert tone="error">{errorText(confirm.error)}</Alert>}
          <Button onClick={() => confirm.mutate(token)} disabled={confirm.isPending}>
            {confirm.isPending ? t('settings.email.confirming') : t(buttonKey)}
          </Button>
        </>
      )}
    </LinkPage>
  );
}

/** /settings/email?token=…: the link sent to a new address. */
export function ConfirmEmailChangePage() {
  const { t } = useTranslation();
  const confirm = useConfirmEmailChange();
  return (
    <EmailLinkPage
      titleKey="settings.email.confirmTitle"
      introKey="settings.email.confirmIntro"
      buttonKey="settings.email.confirmButton"
      confirm={{
        mutate: (token) => confirm.mutate(token),
        isPending: confirm.isPending,
        isError: confirm.isError,
        error: confirm.error,
        done: confirm.data ? t('settings.email.confirmed', { email: confirm.data.email }) : null,
      }}
    />
  );
}

/** /verify-email?token=…: the confirmation link of REQUIRE_EMAIL_VERIFICATION. */
export function VerifyEmailPage() {
  const { t } = useTranslation();
  const verify = useVerifyEmail();
  return (
    <EmailLinkPage
      titleKey="settings.verification.confirmTitle"
      introKey="settings.verification.confirmIntro"
      buttonKey="settings.verification.confirmButton"
      confirm={{
        mutate: (token) => verify.mutate(token),
        isPending: verify.isPending,
        isError: verify.isError,
        error: verify.error,
        done: verify.isSuccess ? t('settings.verification.confirmed') : null,
      }}
    />
  );
}
