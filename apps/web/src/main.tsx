import { StrictMode, startTransition, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { AppProvider, createQueryClient } from './app/provider.tsx';
import type { AuthNavigate } from './features/auth/components/auth-page.tsx';
import { SignInScreen } from './features/auth/components/sign-in-screen.tsx';
import { FullScreenSpinner } from './components/ui/spinner.tsx';
import './index.css';
import { initI18n, loadAllStrings } from './lib/i18n.ts';
import { getMeQueryOptions } from './lib/me.ts';
import { yieldToMain } from './lib/yield-to-main.ts';

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from index.html');
const root = createRoot(container);
const queryClient = createQueryClient();

/** The query cache stays when the screen changes. */
function render(screen: ReactNode) {
  root.render(
    <StrictMode>
      <AppProvider client={queryClient}>{screen}</AppProvider>
    </StrictMode>,
  );
}

let opening: Promise<void> | undefined;
/** What the first screen needs before it is drawn (main's last lines set it off the sign-in page). */
let firstData: Promise<unknown> = Promise.resolve();

/**
 * Loads the app (the router, every screen but the sign-in one, all the language's strings) and
 * shows it, at `to` when given. The sign-in screen's first load leaves it out: /auth's budget
 * (docs/decisions/037-first-load.md).
 */
function openApp(...to: Parameters<AuthNavigate> | []): Promise<void> {
  opening ??= showApp(...to).catch((error: unknown) => {
    opening = undefined; // A dropped connection: the next click tries again.
    throw error;
  });
  return opening;
}

/** Whether the page named the app's chunk (`app-*.js`, vite.config.ts) for the browser to fetch. */
function appChunkPreloaded(): boolean {
  return document.querySelector('link[rel="modulepreload"][href^="/assets/app-"]') !== null;
}

async function showApp(...to: Parameters<AuthNavigate> | []): Promise<void> {
  // One step per task (lib/yield-to-main.ts): the strings and the person's answer (which
  // evaluates zod and the person's schema), then the app's chunk (the router, the layout), then
  // the screen's chunk and first requests (createApp). A signed-in route's page has fetched the
  // app's chunk already (its modulepreloads, apps/server/src/spa-pages.ts), so importing it after
  // the first step costs its evaluation, not a round trip. A page that did not (the sign-in
  // screen's, whose budget leaves the app out) fetches it beside the strings instead.
  const appModule = () => import('./app/router.tsx');
  const fetching = appChunkPreloaded() ? undefined : appModule();
  await Promise.all([loadAllStrings(), firstData, fetching]);
  await yieldToMain();
  const { createApp } = await (fetching ?? appModule());
  await yieldToMain();
  const app = await createApp(queryClient, ...to);
  // As a transition, React renders the layout and the first screen in slices of a few
  // milliseconds while the spinner stays up, instead of one long task that blocks input (the
  // 0.2-0.5 s of blocking time Lighthouse measured on /tiktok and /scheduler).
  startTransition(() => render(app));
}

await initI18n();
// The entry's evaluation and the strings' are one task already: the first render starts another.
await yieldToMain();
if (window.location.pathname.replace(/\/+$/, '') === '/auth') {
  render(<SignInScreen openApp={openApp} />);
} else {
  // Every other screen starts by asking who is here (RequireAuth): ask while the app loads.
  firstData = queryClient.prefetchQuery(getMeQueryOptions());
  // As a transition too: React's first render (its own code compiled as it first runs: 45-90 ms
  // at a phone's speed, for a spinner) is sliced like the app's. The page's static spinner
  // (index.html) shows until then.
  startTransition(() => render(<FullScreenSpinner />));
  // Not awaited: this module (the entry) must finish evaluating first. A screen's chunk may import
  // from it, and the app waits for that screen before its first render (app/router.tsx): awaiting
  // here would have each wait for the other (the calendar never opened on a first load).
  void openApp();
}
