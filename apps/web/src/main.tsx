import { StrictMode, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { AppProvider } from './app/provider.tsx';
import type { AuthNavigate } from './features/auth/components/auth-page.tsx';
import { SignInScreen } from './features/auth/components/sign-in-screen.tsx';
import { FullScreenSpinner } from './components/ui/spinner.tsx';
import './index.css';
import { initI18n, loadAllStrings } from './lib/i18n.ts';

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from index.html');
const root = createRoot(container);

/** The provider (and its query cache) stays when the screen changes: it is the same element. */
function render(screen: ReactNode) {
  root.render(
    <StrictMode>
      <AppProvider>{screen}</AppProvider>
    </StrictMode>,
  );
}

let opening: Promise<void> | undefined;

/**
 * Loads the app (the router, every screen but the sign-in one, all the language's strings) and
 * shows it, at `to` when given. The sign-in screen's first load leaves it out: /auth's budget
 * (docs/decisions/037-first-load.md).
 */
function openApp(...to: Parameters<AuthNavigate> | []): Promise<void> {
  opening ??= Promise.all([import('./app/router.tsx'), loadAllStrings()])
    .then(([{ createApp }]) => createApp(...to))
    .then(render, (error: unknown) => {
      opening = undefined; // A dropped connection: the next click tries again.
      throw error;
    });
  return opening;
}

await initI18n();
if (window.location.pathname.replace(/\/+$/, '') === '/auth') {
  render(<SignInScreen openApp={openApp} />);
} else {
  render(<FullScreenSpinner />);
  await openApp();
}
