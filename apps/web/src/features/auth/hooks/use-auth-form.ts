import { useState, type FormEvent } from 'react';
import { languageChosenWhileSignedOutKey } from '../../../components/language-toggle.tsx';
import { authErrorMessage, type AuthErrorMessage } from '../../../lib/error-text.ts';
import { applyLanguage, useLanguage } from '../../../lib/i18n.ts';
import { getMe, updateLanguage } from '../../../lib/me.ts';
import { useSubmitFocus } from '../../../lib/submit-focus.ts';
import { useAuthenticate } from '../api/sign-in.ts';

export type AuthMode = 'login' | 'signup';

/**
 * The sign-in / sign-up form's state and its submit: every field filled, then the account is
 * signed in (or created) and the person goes on to /tiktok through `onSignedIn`.
 */
export function useAuthForm(onSignedIn: () => void) {
  const authenticate = useAuthenticate();
  const [mode, setMode] = useState<AuthMode>('login');
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<AuthErrorMessage | null>(null);
  const submitFocus = useSubmitFocus<HTMLFormElement>();
  const { language } = useLanguage();

  async function submit(event: FormEvent) {
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
      onSignedIn();
    } catch (caught) {
      setError(authErrorMessage(caught));
      submitFocus.settled();
    }
  }

  function chooseMode(next: AuthMode) {
    setMode(next);
    setError(null);
  }

  return {
    mode,
    chooseMode,
    values: { name, email, password },
    setName,
    setEmail,
    setPassword,
    error,
    loading: authenticate.isPending,
    submit,
    formRef: submitFocus.container,
  };
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
