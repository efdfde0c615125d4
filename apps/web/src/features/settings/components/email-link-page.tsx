import { confirmEmailChangeSchema } from '@cadence/shared/schemas/user';
import type { TranslationKey } from '@cadence/shared/translation-key';
import type { UseMutationResult } from '@tanstack/react-query';
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
function EmailLinkPage<TData>({
  titleKey,
  introKey,
  buttonKey,
  mutation,
  doneText,
}: {
  titleKey: TranslationKey;
  introKey: TranslationKey;
  buttonKey: TranslationKey;
  /** Sends the link's token to the server. */
  mutation: UseMutationResult<TData, Error, string>;
  /** What the page says once the server took the token. */
  doneText: (data: TData) => string;
}) {
  const { t } = useTranslation();
  const confirm = {
    mutate: (token: string) => mutation.mutate(token),
    isPending: mutation.isPending,
    isError: mutation.isError,
    error: mutation.error,
    done: mutation.isSuccess ? doneText(mutation.data) : null,
  };
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
  return (
    <EmailLinkPage
      titleKey="settings.email.confirmTitle"
      introKey="settings.email.confirmIntro"
      buttonKey="settings.email.confirmButton"
      mutation={useConfirmEmailChange()}
      doneText={({ email }) => t('settings.email.confirmed', { email })}
    />
  );
}

/** /verify-email?token=…: the confirmation link of REQUIRE_EMAIL_VERIFICATION. */
export function VerifyEmailPage() {
  const { t } = useTranslation();
  return (
    <EmailLinkPage
      titleKey="settings.verification.confirmTitle"
      introKey="settings.verification.confirmIntro"
      buttonKey="settings.verification.confirmButton"
      mutation={useVerifyEmail()}
      doneText={() => t('settings.verification.confirmed')}
    />
  );
}
