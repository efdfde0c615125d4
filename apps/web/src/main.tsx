import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { AppProvider } from './app/provider.tsx';
import { createRouter } from './app/router.tsx';
import './index.css';
import { initI18n } from './lib/i18n.ts';

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from index.html');

await initI18n();
const router = createRouter();
createRoot(container).render(
  <StrictMode>
    <AppProvider>
      <RouterProvider router={router} />
    </AppProvider>
  </StrictMode>,
);
