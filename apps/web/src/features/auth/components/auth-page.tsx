import { useState, type FormEvent, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { applyLanguage, useLanguage } from '../../../lib/i18n.ts';
import { languageChosenWhileSignedOutKey } from '../../../components/language-toggle.tsx';
import type { RouteTitle } from '../../../lib/document-title.ts';
import { getMe, updateLanguage } from '../../../lib/me.ts';
import { useSubmitFocus } from '../../../lib/submit-focus.ts';
import { useAuthenticate } from '../api/sign-in.ts';
import { AuthShell } from './auth-shell.tsx';

import { authErrorMessage, type AuthErrorMessage } from '../../../lib/error-text.ts';

type Mode = 'login' | 'signup';

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

/** A click the page handles itself; others (new tab, new window) go to the browser. */
const isPlainClick = (event: MouseEvent) =>
  event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;

const inputClass =
  'block w-full rounded-lg border-0 bg-white px-3.5 py-2.5 text-slate-900 shadow-sm ring-1 ring-inset ring-slate-300 placeholder:text-slate-500 focus:ring-2 focus:ring-inset focus:ring-brand-500 sm:text-sm';

export function AuthPage({
  navigate,
  accountDeleted = false,
}: {
  navigate: AuthNavigate;
  /** Arriving from 'Supprimer mon compte': the page says it is done. */
  accountDeleted?: boolean;
}) {
  const { t } = useTranslation();
  const authenticate = useAuthenticate();
  const [mode, setMode] = useState<Mode>('login');
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<AuthErrorMessage | null>(null);
  const loading = authenticate.isPending;
  const submitFocus = useSubmitFocus<HTMLFormElement>();
  const { language } = useLanguage();

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    if (!email.trim() || !password || (mode === 'signup' && !name.trim())) {
      setError({ key: 'auth.errors.fillAllFields' });
      submitFocus.settled();
      return;
    }
    try {
      await authenticate.mutateAsync(
        mode === 'login'
          ? { mode, values: { email: email.trim(), password } }
          : {
              mode,
              values: {
                name: name.trim(),
                email: email.trim(),
                password,
                preferredLanguage: language,
              },
            },
      );
      await syncLanguageAfterSignIn(language);
      void navigate('/tiktok', { replace: true });
    } catch (caught) {
      setError(authErrorMessage(caught));
      submitFocus.settled();
    }
  }

  function switchMode() {
    setMode(mode === 'login' ? 'signup' : 'login');
    setError(null);
  }

  return (
    <AuthShell>
      {accountDeleted && (
        <div className="mb-6">
          <Alert tone="success" arrival>
            {t('auth.accountDeleted')}
          </Alert>
        </div>
      )}
      <div
        className="mb-6 grid grid-cols-2 rounded-lg bg-slate-100 p-1 text-sm font-semibold"
        role="tablist"
      >
        {(['login', 'signup'] as const).map((tabMode) => (
          <button
            key={tabMode}
            type="button"
            role="tab"
            aria-selected={mode === tabMode}
            onClick={() => {
              setMode(tabMode);
              setError(null);
            }}
            className={`rounded-md py-2 transition ${mode === tabMode ? 'bg-white text-slate-900 shadow-sm' : 'text-slate-600 hover:text-slate-900'}`}
          >
            {t(tabMode === 'login' ? 'auth.login' : 'auth.signup')}
          </button>
        ))}
      </div>
      <h1 className="text-xl font-bold text-slate-900">
        {t(mode === 'login' ? 'auth.loginTitle' : 'auth.signupTitle')}
      </h1>
      <p className="mt-1 text-sm text-slate-500">
        {t(mode === 'login' ? 'auth.loginSubtitle' : 'auth.signupSubtitle')}
      </p>
      <form
        ref={submitFocus.container}
        className="mt-6 space-y-4"
        onSubmit={(event) => void onSubmit(event)}
        noValidate
      >
        {mode === 'signup' && (
          <div>
            <label htmlFor="auth-name" className="mb-1.5 block text-sm font-medium text-slate-700">
              {t('auth.name')}
            </label>
            <input
              id="auth-name"
              name="name"
              autoComplete="name"
              className={inputClass}
              value={name}
              onChange={(event) => setName(event.target.value)}
            />
          </div>
        )}
        <div>
          <label htmlFor="auth-email" className="mb-1.5 block text-sm font-medium text-slate-700">
            {t('auth.email')}
          </label>
          <input
            id="auth-email"
            name="email"
            type="email"
            autoComplete="email"
            className={inputClass}
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
        </div>
        <div>
          <label
            htmlFor="auth-password"
            className="mb-1.5 block text-sm font-medium text-slate-700"
          >
            {t('auth.password')}
          </label>
          <input
            id="auth-password"
            name="password"
            type="password"
            autoComplete={mode === 'login' ? 'current-password' : 'new-password'}
            aria-describedby={mode === 'signup' ? 'auth-password-hint' : undefined}
            className={inputClass}
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
          {mode === 'signup' && (
            <p id="auth-password-hint" className="mt-1.5 text-xs text-slate-500">
              {t('auth.passwordHint')}
            </p>
          )}
          {mode === 'login' && (
            <p className="mt-2 text-right text-sm">
              <a
                href="/auth/forgot"
                onClick={(event) => {
                  if (!isPlainClick(event)) return;
                  event.preventDefault();
                  // The address typed here comes along, so nobody types it twice.
                  void navigate('/auth/forgot', { state: { email: email.trim() } });
                }}
                className="font-medium text-brand-600 hover:text-brand-700"
              >
                {t('auth.forgotPassword')}
              </a>
            </p>
          )}
        </div>
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
          onClick={switchMode}
          className="font-semibold text-brand-600 hover:text-brand-700"
        >
          {t(mode === 'login' ? 'auth.switchToSignup' : 'auth.switchToLogin')}
        </button>
      </p>
    </AuthShell>
  );
}

/**
 * A language picked on this page before signing in is the latest choice: store it on the account.
 * Otherwise the account's language wins (a person signing in on a new device gets theirs).
 */
async function syncLanguageAfterSignIn(current: 'fr' | 'en') {
  const chosenHere = sessionStorage.getItem(languageChosenWhileSignedOutKey) === '1';
  sessionStorage.removeItem(languageChosenWhileSignedOutKey);
  if (chosenHere) {
    await updateLanguage(current).catch(() => undefined);
    return;
  }
  const me = await getMe().catch(() => null);
  if (me && me.preferredLanguage !== current) await applyLanguage(me.preferredLanguage);
}
