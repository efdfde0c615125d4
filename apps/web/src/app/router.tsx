import { createBrowserRouter, Navigate } from 'react-router';
import { AccountsPage } from '../features/accounts/accounts-page.tsx';
import { AuthPage } from '../features/auth/components/auth-page.tsx';
import { ErrorPage } from '../features/errors/error-page.tsx';
import { NotFoundPage } from '../features/errors/not-found-page.tsx';
import { RedirectIfSignedIn, RequireAuth } from './guards.tsx';

// Screens most visits never open are split off the initial bundle and loaded on navigation.
const lazyScheduler = () =>
  import('../features/scheduler/scheduler-page.tsx').then((m) => ({ Component: m.SchedulerPage }));
const lazyStories = () =>
  import('../features/stories/stories-page.tsx').then((m) => ({ Component: m.StoriesPage }));
const lazyMemes = () =>
  import('../features/memes/memes-page.tsx').then((m) => ({ Component: m.MemesPage }));
const lazySettings = () =>
  import('../features/settings/settings-page.tsx').then((m) => ({ Component: m.SettingsPage }));
const lazyPrivacy = () =>
  import('../features/legal/components/privacy-page.tsx').then((m) => ({
    Component: m.PrivacyPage,
  }));
const lazyForgotPassword = () =>
  import('../features/auth/components/forgot-password-page.tsx').then((m) => ({
    Component: m.ForgotPasswordPage,
  }));
const lazyResetPassword = () =>
  import('../features/auth/components/reset-password-page.tsx').then((m) => ({
    Component: m.ResetPasswordPage,
  }));
const lazyTerms = () =>
  import('../features/legal/components/terms-page.tsx').then((m) => ({ Component: m.TermsPage }));

/**
 * Routes of spec §2, plus /auth/forgot, /auth/reset and /settings. Signed out, everything but
 * /privacy, /terms and /auth… leads to /auth. A reset link works signed in or out (it ends every
 * session anyway).
 */
export function createRouter() {
  return createBrowserRouter([
    {
      errorElement: <ErrorPage />,
      children: [
        { path: '/privacy', lazy: lazyPrivacy },
        { path: '/terms', lazy: lazyTerms },
        { path: '/auth/reset', lazy: lazyResetPassword },
        {
          element: <RedirectIfSignedIn />,
          children: [
            { path: '/auth', element: <AuthPage /> },
            { path: '/auth/forgot', lazy: lazyForgotPassword },
          ],
        },
        {
          element: <RequireAuth />,
          children: [
            { index: true, element: <Navigate to="/tiktok" replace /> },
            { path: '/tiktok', element: <AccountsPage /> },
            { path: '/scheduler', lazy: lazyScheduler },
            { path: '/stories', lazy: lazyStories },
            { path: '/memes', lazy: lazyMemes },
            { path: '/settings', lazy: lazySettings },
            { path: '*', element: <NotFoundPage /> },
          ],
        },
      ],
    },
  ]);
}
