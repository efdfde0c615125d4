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
const lazyAnalytics = () =>
  import('../features/analytics/analytics-page.tsx').then((m) => ({ Component: m.AnalyticsPage }));
const lazyMemes = () =>
  import('../features/memes/memes-page.tsx').then((m) => ({ Component: m.MemesPage }));
const lazyPrivacy = () =>
  import('../features/legal/components/privacy-page.tsx').then((m) => ({
    Component: m.PrivacyPage,
  }));
const lazyTerms = () =>
  import('../features/legal/components/terms-page.tsx').then((m) => ({ Component: m.TermsPage }));

/** Routes of spec §2. Signed out, everything but /privacy, /terms and /auth leads to /auth. */
export function createRouter() {
  return createBrowserRouter([
    {
      errorElement: <ErrorPage />,
      children: [
        { path: '/privacy', lazy: lazyPrivacy },
        { path: '/terms', lazy: lazyTerms },
        { element: <RedirectIfSignedIn />, children: [{ path: '/auth', element: <AuthPage /> }] },
        {
          element: <RequireAuth />,
          children: [
            { index: true, element: <Navigate to="/tiktok" replace /> },
            { path: '/tiktok', element: <AccountsPage /> },
            { path: '/scheduler', lazy: lazyScheduler },
            { path: '/stories', lazy: lazyStories },
            { path: '/memes', lazy: lazyMemes },
            { path: '/analytics', lazy: lazyAnalytics },
            { path: '*', element: <NotFoundPage /> },
          ],
        },
      ],
    },
  ]);
}
