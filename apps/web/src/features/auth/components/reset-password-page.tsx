import { newPasswordConfirmationSchema, resetTokenSchema } from '@cadence/shared/schemas/auth';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button, buttonClassName } from '../../../components/ui/button.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { authErrorMessage, type AuthErrorMessage } from '../../../lib/error-text.ts';
import { apiFieldErrors, zodFieldErrors, type FieldErrors } from '../../../lib/field-errors.ts';
import { useSubmitFocus } from '../../../lib/submit-focus.ts';
import { useResetPassword } from '../api/reset-password.ts';
import { AuthShell } from './auth-shell.tsx';

type Stage = 'form' | 'done' | 'invalid-link';

/** /auth/reset?token=…: the page a reset mail links to. Works signed in or out. */
export function ResetPasswordPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const reset = useResetPassword();
  const [stage, setStage] = useState<Stage>(() =>
    resetTokenSchema.safeParse(token).success ? 'form' : 'invalid-link',
  );
  const [newPassword, setNewPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [fields, setFields] = useState<FieldErrors>({});
  const [error, setError] = useState<AuthErrorMessage | null>(null);
  const submitFocus = useSubmitFocus<HTMLDivElement>();

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setFields({});
    setError(null);
    const parsed = newPasswordConfirmationSchema.safeParse({ newPassword, confirmPassword });
    if (!parsed.success) {
      setFields(zodFieldErrors(parsed.error));
      submitFocus.settled();
      return;
    }
    try {
      await reset.mutateAsync({ token, newPassword: parsed.data.newPassword });
      setStage('done');
    } catch (caught) {
      const named = apiFieldErrors(caught);
      if (named?._ === 'auth.errors.resetLinkInvalid' || named?.token) setStage('invalid-link');
      else if (named?.newPassword) setFields(named);
      else setError(authErrorMessage(caught));
    }
    submitFocus.settled();
  }

  const fieldText = (name: string) => {
    const key = fields[name];
    return key ? t(key) : null;
  };

  return (
    <AuthShell>
      <h1 className="text-xl font-bold text-slate-900">{t('auth.reset.title')}</h1>
      <div ref={submitFocus.container}>
        {stage === 'invalid-link' && (
          <div className="mt-6 space-y-6">
            <Alert tone="error">{t('auth.errors.resetLinkInvalid')}</Alert>
            <Link to="/auth/forgot" className={buttonClassName('primary', 'w-full')}>
              {t('auth.reset.requestNew')}
            </Link>
            <p className="text-center text-sm">
              <Link to="/auth" className="font-semibold text-brand-600 hover:text-brand-700">
                {t('auth.forgot.backToLogin')}
              </Link>
            </p>
          </div>
        )}
        {stage === 'done' && (
          <div className="mt-6 space-y-6">
            <Alert tone="success">{t('auth.reset.done')}</Alert>
            <Link to="/auth" replace className={buttonClassName('primary', 'w-full')}>
              {t('auth.reset.goToLogin')}
            </Link>
          </div>
        )}
        {stage === 'form' && (
          <>
            <p className="mt-1 text-sm text-slate-500">{t('auth.reset.subtitle')}</p>
            <form className="mt-6 space-y-4" onSubmit={(event) => void onSubmit(event)} noValidate>
              <TextField
                id="reset-new-password"
                name="new-password"
                type="password"
                autoComplete="new-password"
                label={t('auth.reset.newPassword')}
                hint={t('auth.passwordHint')}
                value={newPassword}
                error={fieldText('newPassword')}
                onChange={(event) => setNewPassword(event.target.value)}
              />
              <TextField
                id="reset-confirm-password"
                name="confirm-password"
                type="password"
                autoComplete="new-password"
                label={t('auth.reset.confirmPassword')}
                value={confirmPassword}
                error={fieldText('confirmPassword')}
                onChange={(event) => setConfirmPassword(event.target.value)}
              />
              {error && <Alert tone="error">{'key' in error ? t(error.key) : error.text}</Alert>}
              <Button type="submit" className="w-full" pending={reset.isPending}>
                {reset.isPending && <Spinner className="h-4 w-4" />}
                {reset.isPending ? t('auth.loading') : t('auth.reset.submit')}
              </Button>
            </form>
            <p className="mt-6 text-center text-sm">
              <Link to="/auth" className="font-semibold text-brand-600 hover:text-brand-700">
                {t('auth.forgot.backToLogin')}
              </Link>
            </p>
          </>
        )}
      </div>
    </AuthShell>
  );
}
