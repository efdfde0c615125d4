import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import type { RouteTitle } from '../../../lib/document-title.ts';
import { useAuthForm } from '../hooks/use-auth-form.ts';
import { AuthFields } from './auth-fields.tsx';
import { AuthModeTabs } from './auth-mode-tabs.tsx';
import { AuthShell } from './auth-shell.tsx';

/** The browser tab's name on /auth, in the app's router and on the sign-in screen alone. */
export const signInTitle: RouteTitle = { titleKey: 'auth.login' };

/**
 * How the page leads elsewhere: the router's navigate inside the app, or the app's opening when
 * the page was the first one loaded (main.tsx: /auth's first load has no router).
 */
export type AuthNavigate = (
  to: string,
  options?: { state?: unknown; replace?: boolean },
) => unknown;

export function AuthPage({
  navigate,
  accountDeleted = false,
}: {
  navigate: AuthNavigate;
  /** Arriving from 'Supprimer mon compte': the page says it is done. */
  accountDeleted?: boolean;
}) {
  const { t } = useTranslation();
  const form = useAuthForm(() => void navigate('/tiktok', { replace: true }));
  const { mode, error, loading } = form;

  return (
    <AuthShell>
      {accountDeleted && (
        <div className="mb-6">
          <Alert tone="success" arrival>
            {t('auth.accountDeleted')}
          </Alert>
        </div>
      )}
      <AuthModeTabs mode={mode} onChoose={form.chooseMode} />
      <h1 className="text-xl font-bold text-slate-900">
        {t(mode === 'login' ? 'auth.loginTitle' : 'auth.signupTitle')}
      </h1>
      <p className="mt-1 text-sm text-slate-500">
        {t(mode === 'login' ? 'auth.loginSubtitle' : 'auth.signupSubtitle')}
      </p>
      <form
        ref={form.formRef}
        className="mt-6 space-y-4"
        onSubmit={(event) => void form.submit(event)}
        noValidate
      >
        <AuthFields
          mode={mode}
          values={form.values}
          onNameChange={form.setName}
          onEmailChange={form.setEmail}
          onPasswordChange={form.setPassword}
          // The address typed here comes along, so nobody types it twice.
          onForgotPassword={() =>
            void navigate('/auth/forgot', { state: { email: form.values.email.trim() } })
          }
        />
        {error && <Alert tone="error">{'key' in error ? t(error.key) : error.text}</Alert>}
        <Button type="submit" className="w-full" pending={loading}>
          {loading && <Spinner className="h-4 w-4" />}
          {loading
            ? t('auth.loading')
            : t(mode === 'login' ? 'auth.submitLogin' : 'auth.submitSignup')}
        </Button>
      </form>
      <p className="mt-6 text-center text-sm text-slate-500">
        {t(mode === 'login' ? 'auth.noAccount' : 'auth.haveAccount')}{' '}
        <button
          type="button"
          onClick={() => form.chooseMode(mode === 'login' ? 'signup' : 'login')}
          className="font-semibold text-brand-600 hover:text-brand-700"
        >
          {t(mode === 'login' ? 'auth.switchToSignup' : 'auth.switchToLogin')}
        </button>
      </p>
    </AuthShell>
  );
}
