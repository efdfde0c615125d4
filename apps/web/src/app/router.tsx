// First: zod is configured before any schema is made (lib/zod-config.ts).
import '../lib/zod-config.ts';
import type { QueryClient } from '@tanstack/react-query';
import type { ComponentType, ReactNode } from 'react';
import {
  createBrowserRouter,
  Navigate,
  RouterProvider,
  type LazyRouteFunction,
  type RouteObject,
} from 'react-router';
import { signInTitle, type AuthNavigate } from '../features/auth/components/auth-page.tsx';
import { AuthRoute } from '../features/auth/components/auth-route.tsx';
import { ErrorPage } from '../features/errors/error-page.tsx';
import { NotFoundPage } from '../features/errors/not-found-page.tsx';
import type { RouteTitle } from '../lib/document-title.ts';
import { TitledOutlet } from './document-title.tsx';
import { HandedOverContext } from './route-focus.ts';
import { RedirectIfSignedIn, RequireAuth } from './guards.tsx';

// The router and everything below it load after the sign-in screen (main.tsx); each screen is split
// off again and loaded on navigation. apps/web/scripts/route-budgets.mjs holds each route's first
// load to a budget.

/**
 * A screen's first requests, started with its module (`firstData` beside its component). The page's
 * first screen waits for them, so it is drawn once, with its data: no spinner that a list then
 * pushes down (the footer moved by 0.028 of the screen on /scheduler), no second render. A screen
 * opened later starts them without waiting, and shows its own loading state as before. The server
 * has already sent a signed-in page's requests (`<link rel="preload" as="fetch">`,
 * apps/server/src/spa-pages.ts): these take their answers.
 */
export type FirstData = (client: QueryClient, url: URL) => Promise<void>;

/** Set by createApp: the page's query cache, and whether its first screen is drawn. */
const page: { client: QueryClient | null; drawn: boolean } = { client: null, drawn: false };

/** A lazy route whose module names its component and, optionally, its first requests. */
function screen(
  load: () => Promise<{ Component: ComponentType; firstData?: FirstData }>,
): LazyRouteFunction<RouteObject> {
  return async () => {
    const { Component, firstData } = await load();
    if (firstData === undefined) return { Component };
    return {
      Component,
      loader: async ({ request }) => {
        if (page.client === null) return null;
        const loading = firstData(page.client, new URL(request.url));
        if (!page.drawn) await loading;
        return null;
      },
      // Only when the screen opens: a filter or a search change is the screen's own business.
      shouldRevalidate: () => false,
    };
  };
}

const lazyAccounts = screen(() =>
  import('../features/accounts/accounts-page.tsx').then((m) => ({
    Component: m.AccountsPage,
    firstData: m.accountsFirstData,
  })),
);
const lazyScheduler = screen(() =>
  import('../features/scheduler/scheduler-page.tsx').then((m) => ({
    Component: m.SchedulerPage,
    firstData: m.schedulerFirstData,
  })),
);
const lazyCalendar = () =>
  import('../features/scheduler/calendar/calendar-page.tsx').then((m) => ({
    Component: m.CalendarPage,
  }));
const lazyQueue = screen(() =>
  import('../features/scheduler/posts/post-list-view.tsx').then((m) => ({
    Component: m.QueueView,
    firstData: m.queueFirstData,
  })),
);
const lazyHistory = screen(() =>
  import('../features/scheduler/posts/post-list-view.tsx').then((m) => ({
    Component: m.HistoryView,
    firstData: m.historyFirstData,
  })),
);
// Its first data is the scheduler page's (the drafts, for the tabs' count).
const lazyDrafts = () =>
  import('../features/scheduler/drafts/drafts-view.tsx').then((m) => ({
    Component: m.DraftsView,
  }));
const lazyStories = () =>
  import('../features/stories/stories-page.tsx').then((m) => ({ Component: m.StoriesPage }));
const lazyAnalytics = () =>
  import('../features/analytics/analytics-page.tsx').then((m) => ({ Component: m.AnalyticsPage }));
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
const lazyUnsubscribe = () =>
  import('../features/notifications/components/unsubscribe-page.tsx').then((m) => ({
    Component: m.UnsubscribePage,
  }));
const lazyConfirmEmailChange = () =>
  import('../features/settings/components/email-link-page.tsx').then((m) => ({
    Component: m.ConfirmEmailChangePage,
  }));
const lazyVerifyEmail = () =>
  import('../features/settings/components/email-link-page.tsx').then((m) => ({
    Component: m.VerifyEmailPage,
  }));
const lazyTerms = () =>
  import('../features/legal/components/terms-page.tsx').then((m) => ({ Component: m.TermsPage }));

const titled = (handle: RouteTitle) => handle;

/**
 * Routes of spec §2, plus /auth/forgot, /auth/reset and /settings. Signed out, everything but
 * /privacy, /terms and /auth… leads to /auth. A reset link works signed in or out (it ends every
 * session anyway). Every route with a path names its browser tab in `handle` (document-title.tsx;
 * a test checks).
 */
export const routes: RouteObject[] = [
  {
    element: <TitledOutlet />,
    errorElement: <ErrorPage />,
    children: [
      { path: '/privacy', lazy: lazyPrivacy, handle: titled({ title: 'Privacy Policy' }) },
      { path: '/terms', lazy: lazyTerms, handle: titled({ title: 'Terms of Service' }) },
      {
        // An email's unsubscribe link: works signed in or out.
        path: '/unsubscribe',
        lazy: lazyUnsubscribe,
        handle: titled({ titleKey: 'settings.notifications.unsubscribe.title' }),
      },
      {
        // The link sent to a new address, and the address confirmation link: signed in or out.
        path: '/settings/email',
        lazy: lazyConfirmEmailChange,
        handle: titled({ titleKey: 'settings.email.confirmTitle' }),
      },
      {
        path: '/verify-email',
        lazy: lazyVerifyEmail,
        handle: titled({ titleKey: 'settings.verification.confirmTitle' }),
      },
      {
        path: '/auth/reset',
        lazy: lazyResetPassword,
        handle: titled({ titleKey: 'auth.reset.title' }),
      },
      {
        element: <RedirectIfSignedIn />,
        children: [
          { path: '/auth', element: <AuthRoute />, handle: titled(signInTitle) },
          {
            path: '/auth/forgot',
            lazy: lazyForgotPassword,
            handle: titled({ titleKey: 'auth.forgot.title' }),
          },
        ],
      },
      {
        element: <RequireAuth />,
        children: [
          { index: true, element: <Navigate to="/tiktok" replace /> },
          { path: '/tiktok', lazy: lazyAccounts, handle: titled({ titleKey: 'nav.tiktok' }) },
          {
            // The form and the view tabs; the view below them is the child route's.
            path: '/scheduler',
            lazy: lazyScheduler,
            handle: titled({ titleKey: 'nav.scheduler' }),
            children: [
              { index: true, lazy: lazyQueue },
              {
                path: 'history',
                lazy: lazyHistory,
                handle: titled({ titleKey: 'scheduler.views.history' }),
              },
              {
                path: 'drafts',
                lazy: lazyDrafts,
                handle: titled({ titleKey: 'scheduler.views.drafts' }),
              },
            ],
          },
          {
            path: '/scheduler/calendar',
            lazy: lazyCalendar,
            handle: titled({ titleKey: 'calendar.title' }),
          },
          { path: '/stories', lazy: lazyStories, handle: titled({ titleKey: 'nav.stories' }) },
          { path: '/memes', lazy: lazyMemes, handle: titled({ titleKey: 'nav.memes' }) },
          {
            path: '/analytics',
            lazy: lazyAnalytics,
            handle: titled({ titleKey: 'nav.analytics' }),
          },
          {
            path: '/settings',
            lazy: lazySettings,
            handle: titled({ titleKey: 'settings.title' }),
          },
          { path: '*', element: <NotFoundPage />, handle: titled({ titleKey: 'notFound.title' }) },
        ],
      },
    ],
  },
];

/**
 * The app, at the current address or, when the sign-in screen hands over to it (main.tsx), at `to`
 * once that screen has loaded: the screen it replaces stays until then.
 */
export async function createApp(
  client: QueryClient,
  ...to: Parameters<AuthNavigate> | []
): Promise<ReactNode> {
  page.client = client;
  const router = createBrowserRouter(routes);
  const [path, options] = to;
  if (path !== undefined) await router.navigate(path, options);
  // The screen's module and first requests are in before the first render: the layout and the
  // screen are drawn in one (sliced) render, with their data.
  if (!router.state.initialized) {
    await new Promise<void>((resolve) => {
      const stop = router.subscribe((state) => {
        if (!state.initialized) return;
        stop();
        resolve();
      });
    });
  }
  page.drawn = true;
  return (
    <HandedOverContext value={path !== undefined}>
      <RouterProvider router={router} />
    </HandedOverContext>
  );
}
