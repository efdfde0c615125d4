import { requestPasswordResetSchema } from '@cadence/shared/schemas/auth';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { z } from 'zod';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { authErrorMessage, type AuthErrorMessage } from '../../../lib/error-text.ts';
import { apiFieldErrors, zodFieldErrors, type FieldErrors } from '../../../lib/field-errors.ts';
import { useSubmitFocus } from '../../../lib/submit-focus.ts';
import { useRequestPasswordReset } from '../api/request-password-reset.ts';
import { AuthShell } from './auth-shell.tsx';

/** The address typed on the login form comes along (router state), so nobody types it twice. */
const fromLoginSchema = z.object({ email: z.string().max(254) });

/** /auth/forgot: asks for a reset link by mail. */
export function ForgotPasswordPage() {
  const { t } = useTranslation();
  const location = useLocation();
  const request = useRequestPasswordReset();
  const [email, setEmail] = useState(() => {
    const state = fromLoginSchema.safeParse(location.state);
    return state.success ? state.data.email : '';
  });
  const [fields, setFields] = useState<FieldErrors>({});
  const [error, setError] = useState<AuthErrorMessage | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const submitFocus = useSubmitFocus<HTMLDivElement>();

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setFields({});
    setError(null);
    const parsed = requestPasswordResetSchema.safeParse({ email });
    if (!parsed.success) {
      setFields(zodFieldErrors(parsed.error));
      submitFocus.settled();
      return;
    }
    try {
      await request.mutateAsync(parsed.data);
      setSentTo(parsed.data.email);
    } catch (caught) {
      const named = apiFieldErrors(caught);
      if (named?.email) setFields(named);
      else setError(authErrorMessage(caught));
    }
    submitFocus.settled();
  }

  const emailError = fields.email ? t(fields.email) : null;
  return (
    <AuthShell>
      <h1 className="text-xl font-bold text-slate-900">{t('auth.forgot.title')}</h1>
      <div ref={submitFocus.container}>
        {sentTo ? (
          <div className="mt-6 space-y-4">
            <Alert tone="success">{t('auth.forgot.sent', { email: sentTo })}</Alert>
            <p className="text-sm text-slate-500">{t('auth.forgot.checkSpam')}</p>
          </div>
        ) : (
          <>
            <p className="mt-1 text-sm text-slate-500">{t('auth.forgot.subtitle')}</p>
            <form className="mt-6 space-y-4" onSubmit={(event) => void onSubmit(event)} noValidate>
              <TextField
                id="forgot-email"
                name="email"
                type="email"
                autoComplete="email"
                label={t('auth.email')}
                value={email}
                error={emailError}
                onChange={(event) => setEmail(event.target.value)}
              />
              {error && <Alert tone="error">{'key' in error ? t(error.key) : error.text}</Alert>}
              <Button type="submit" className="w-full" pending={request.isPending}>
                {request.isPending && <Spinner className="h-4 w-4" />}
                {request.isPending ? t('auth.loading') : t('auth.forgot.submit')}
              </Button>
            </form>
          </>
        )}
      </div>
      <p className="mt-6 text-center text-sm">
        <Link to="/auth" className="font-semibold text-brand-600 hover:text-brand-700">
          {t('auth.forgot.backToLogin')}
        </Link>
      </p>
    </AuthShell>
  );
}
