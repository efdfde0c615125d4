import { resetTokenSchema } from '@cadence/shared/schemas/auth';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { Alert } from '../../../components/ui/alert.tsx';
import { buttonClassName } from '../../../components/ui/button.tsx';
import { useSubmitFocus } from '../../../lib/submit-focus.ts';
import { AuthShell } from './auth-shell.tsx';
import { ResetPasswordForm } from './reset-password-form.tsx';

type Stage = 'form' | 'done' | 'invalid-link';

/** /auth/reset?token=…: the page a reset mail links to. Works signed in or out. */
export function ResetPasswordPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [stage, setStage] = useState<Stage>(() =>
    resetTokenSchema.safeParse(token).success ? 'form' : 'invalid-link',
  );
  const submitFocus = useSubmitFocus<HTMLDivElement>();

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
            <ResetPasswordForm
              token={token}
              onDone={() => setStage('done')}
              onInvalidLink={() => setStage('invalid-link')}
              onSettled={submitFocus.settled}
            />
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
