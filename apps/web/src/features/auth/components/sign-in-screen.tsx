import { useEffect } from 'react';
import { useDocumentTitle } from '../../../lib/document-title.ts';
import { hasSession } from '../api/has-session.ts';
import { AuthPage, signInTitle, type AuthNavigate } from './auth-page.tsx';

/**
 * /auth when it is the first page loaded: the sign-in page without the app's router, which
 * `openApp` loads when the person leaves it (main.tsx). Shown at once; someone already signed in
 * goes on to their accounts as soon as the session answers.
 */
export function SignInScreen({ openApp }: { openApp: AuthNavigate }) {
  useDocumentTitle([signInTitle]);
  useEffect(() => {
    let shown = true;
    hasSession().then(
      (signedIn) => {
        if (signedIn && shown) void openApp('/tiktok', { replace: true });
      },
      () => undefined, // Unreachable server: the form stays, and says so when used.
    );
    return () => {
      shown = false;
    };
  }, [openApp]);
  return <AuthPage navigate={openApp} />;
}
