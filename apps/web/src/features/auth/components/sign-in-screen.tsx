import { useEffect } from 'react';
import { useDocumentTitle } from '../../../lib/document-title.ts';
import { useMe } from '../../../lib/me.ts';
import { AuthPage, signInTitle, type AuthNavigate } from './auth-page.tsx';

/**
 * /auth when it is the first page loaded: the sign-in page without the app's router, which
 * `openApp` loads when the person leaves it (main.tsx). Shown at once; someone already signed in
 * goes on to their accounts as soon as the session answers.
 */
export function SignInScreen({ openApp }: { openApp: AuthNavigate }) {
  const me = useMe();
  useDocumentTitle([signInTitle]);
  const signedIn = Boolean(me.data);
  useEffect(() => {
    if (signedIn) void openApp('/tiktok', { replace: true });
  }, [signedIn, openApp]);
  return <AuthPage navigate={openApp} />;
}
