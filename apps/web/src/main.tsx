import { StrictMode, startTransition, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { AppProvider, createQueryClient } from './app/provider.tsx';
import type { AuthNavigate } from './features/auth/components/auth-page.tsx';
import { SignInScreen } from './features/auth/components/sign-in-screen.tsx';
import { FullScreenSpinner } from './components/ui/spinner.tsx';
import './index.css';
import { initI18n, loadAllStrings } from './lib/i18n.ts';
import { getMeQueryOptions } from './lib/me.ts';

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

async function showApp(...to: Parameters<AuthNavigate> | []): Promise<void> {
  const [{ createApp }] = await Promise.all([
    import('./app/router.tsx'),
    loadAllStrings(),
    firstData,
  ]);
  const app = await createApp(queryClient, ...to);
  // As a transition, React renders the layout and the first screen in slices of a few
  // milliseconds while the spinner stays up, instead of one long task that blocks input (the
  // 0.2-0.5 s of blocking time Lighthouse measured on /tiktok and /scheduler).
  startTransition(() => render(app));
}

await initI18n();
if (window.location.pathname.replace(/\/+$/, '') === '/auth') {
  render(<SignInScreen openApp={openApp} />);
} else {
  // Every other screen starts by asking who is here (RequireAuth): ask while the app loads.
  firstData = queryClient.prefetchQuery(getMeQueryOptions());
  render(<FullScreenSpinner />);
  // Not awaited: this module (the entry) must finish evaluating first. A screen's chunk may import
  // from it, and the app waits for that screen before its first render (app/router.tsx): awaiting
  // here would have each wait for the other (the calendar never opened on a first load).
  void openApp();
}
