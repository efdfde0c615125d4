import type { InputHTMLAttributes, MouseEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { AuthMode } from '../hooks/use-auth-form.ts';

/** A click the page handles itself; others (new tab, new window) go to the browser. */
const isPlainClick = (event: MouseEvent) =>
  event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;

const inputClass =
  'block w-full rounded-lg border-0 bg-white px-3.5 py-2.5 text-slate-900 shadow-sm ring-1 ring-inset ring-slate-300 placeholder:text-slate-500 focus:ring-2 focus:ring-inset focus:ring-brand-500 sm:text-sm';

/**
 * The name (sign-up only), e-mail and password fields; signing up shows the password rules,
 * signing in the 'Mot de passe oublié ?' link.
 */
export function AuthFields({
  mode,
  values,
  onNameChange,
  onEmailChange,
  onPasswordChange,
  onForgotPassword,
}: {
  mode: AuthMode;
  values: { name: string; email: string; password: string };
  onNameChange: (name: string) => void;
  onEmailChange: (email: string) => void;
  onPasswordChange: (password: string) => void;
  onForgotPassword: () => void;
}) {
  const { t } = useTranslation();
  return (
    <>
      {mode === 'signup' && (
        <AuthInput
          id="auth-name"
          label={t('auth.name')}
          name="name"
          autoComplete="name"
          value={values.name}
          onChange={(event) => onNameChange(event.target.value)}
        />
      )}
      <AuthInput
        id="auth-email"
        label={t('auth.email')}
        name="email"
        type="email"
        autoComplete="email"
        value={values.email}
        onChange={(event) => onEmailChange(event.target.value)}
      />
      <AuthInput
        id="auth-password"
        label={t('auth.password')}
        name="password"
        type="password"
        autoComplete={mode === 'login' ? 'current-password' : 'new-password'}
        aria-describedby={mode === 'signup' ? 'auth-password-hint' : undefined}
        value={values.password}
        onChange={(event) => onPasswordChange(event.target.value)}
      >
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
                onForgotPassword();
              }}
              className="font-medium text-brand-600 hover:text-brand-700"
            >
              {t('auth.forgotPassword')}
            </a>
          </p>
        )}
      </AuthInput>
    </>
  );
}

/** A labelled input of the form, with what goes under it (a hint, a link). */
function AuthInput({
  id,
  label,
  children,
  ...input
}: { id: string; label: string; children?: ReactNode } & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <div>
      <label htmlFor={id} className="mb-1.5 block text-sm font-medium text-slate-700">
        {label}
      </label>
      <input id={id} className={inputClass} {...input} />
      {children}
    </div>
  );
}
