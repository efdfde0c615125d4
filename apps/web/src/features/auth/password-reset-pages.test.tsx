// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { resources } from '../../lib/i18n.ts';
import { ForgotPasswordPage } from './components/forgot-password-page.tsx';
import { ResetPasswordPage } from './components/reset-password-page.tsx';

const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.use(initReactI18next).init({ resources, lng: 'fr', fallbackLng: false });
});

let requests: { method: string; path: string; body: unknown }[];
let answers: Record<string, { status: number; body: unknown }>;

beforeEach(() => {
  requests = [];
  answers = {
    '/api/me': { status: 401, body: { code: 'unauthenticated', message: 'Sign in first' } },
    '/api/auth/request-password-reset': { status: 200, body: { status: true } },
    '/api/auth/reset-password': { status: 200, body: { status: true } },
  };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (path: string, init?: RequestInit) => {
      const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : null;
      requests.push({ method: init?.method ?? 'GET', path, body });
      const answer = answers[path] ?? { status: 404, body: { code: 'not_found' } };
      return new Response(JSON.stringify(answer.body), {
        status: answer.status,
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderAt(url: string, language: 'fr' | 'en' = 'fr') {
  void i18n.changeLanguage(language);
  const router = createMemoryRouter(
    [
      { path: '/auth', element: <p>login page</p> },
      { path: '/auth/forgot', element: <ForgotPasswordPage /> },
      { path: '/auth/reset', element: <ResetPasswordPage /> },
    ],
    { initialEntries: [url] },
  );
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  render(
    <QueryClientProvider client={queryClient}>
      <I18nextProvider i18n={i18n}>
        <RouterProvider router={router} />
      </I18nextProvider>
    </QueryClientProvider>,
  );
}

const posts = (path: string) => requests.filter((r) => r.method === 'POST' && r.path === path);
const token = 'AbCdEfGhIjKlMnOpQrStUvWx';

describe('forgot password', () => {
  it('checks the address with the shared schema before asking, then says what happens next', async () => {
    renderAt('/auth/forgot');
    const user = userEvent.setup();
    await screen.findByRole('heading', { name: 'Mot de passe oublié' });
    const email = screen.getByLabelText('Email');
    await user.type(email, 'zoe@');
    await user.click(screen.getByRole('button', { name: 'Envoyer le lien' }));
    expect(screen.getByText('Adresse email invalide')).toBeTruthy();
    expect(email.getAttribute('aria-invalid')).toBe('true');
    expect(posts('/api/auth/request-password-reset')).toEqual([]);

    await user.type(email, 'example.com');
    await user.click(screen.getByRole('button', { name: 'Envoyer le lien' }));
    const sent = await screen.findByRole('status');
    expect(sent.textContent).toContain('Si un compte existe pour zoe@example.com');
    expect(posts('/api/auth/request-password-reset').map((r) => r.body)).toEqual([
      { email: 'zoe@example.com' },
    ]);
  });

  it('says when this connection asked too often, in English too', async () => {
    answers['/api/auth/request-password-reset'] = {
      status: 429,
      body: { code: 'rate_limited', message: 'x', fields: { _: 'auth.errors.tooManyResets' } },
    };
    renderAt('/auth/forgot', 'en');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Email'), 'zoe@example.com');
    await user.click(screen.getByRole('button', { name: 'Send the link' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Too many requests from this connection. Try again in an hour.',
    );
  });
});

describe('reset password', () => {
  it('offers a new link at once when the address has no usable token', async () => {
    renderAt('/auth/reset');
    await screen.findByRole('heading', { name: 'Choisissez un nouveau mot de passe' });
    expect(screen.getByRole('alert').textContent).toContain("n'est plus valable");
    expect(screen.getByRole('link', { name: 'Demander un nouveau lien' })).toBeTruthy();
    expect(screen.queryByLabelText('Nouveau mot de passe')).toBeNull();
  });

  it('checks both passwords before sending, then sends the token and the new password', async () => {
    renderAt(`/auth/reset?token=${token}`);
    const user = userEvent.setup();
    const password = await screen.findByLabelText('Nouveau mot de passe');
    const confirm = screen.getByLabelText('Confirmez le nouveau mot de passe');
    const submit = screen.getByRole('button', { name: 'Enregistrer le mot de passe' });

    await user.type(password, '12345');
    await user.type(confirm, '12345');
    await user.click(submit);
    expect(screen.getByText('Le mot de passe doit contenir au moins 6 caractères')).toBeTruthy();

    await user.type(password, '6');
    await user.type(confirm, '7');
    await user.click(submit);
    expect(screen.getByText('Les deux mots de passe ne correspondent pas')).toBeTruthy();
    expect(confirm.getAttribute('aria-invalid')).toBe('true');
    expect(posts('/api/auth/reset-password')).toEqual([]);

    await user.clear(confirm);
    await user.type(confirm, '123456');
    await user.click(submit);
    expect((await screen.findByRole('status')).textContent).toBe(
      'Votre mot de passe a été changé. Connectez-vous avec le nouveau.',
    );
    expect(posts('/api/auth/reset-password').map((r) => r.body)).toEqual([
      { token, newPassword: '123456' },
    ]);
    await user.click(screen.getByRole('link', { name: 'Aller à la connexion' }));
    await screen.findByText('login page');
  });

  it('turns a link refused by the server (used or expired) into the offer of a new one', async () => {
    answers['/api/auth/reset-password'] = {
      status: 400,
      body: {
        code: 'validation_failed',
        message: 'Invalid token',
        fields: { _: 'auth.errors.resetLinkInvalid' },
      },
    };
    renderAt(`/auth/reset?token=${token}`, 'en');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('New password'), 'new-secret');
    await user.type(screen.getByLabelText('Confirm the new password'), 'new-secret');
    await user.click(screen.getByRole('button', { name: 'Save the password' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'This reset link is no longer valid: it was already used or has expired. Request a new one.',
    );
    expect(screen.getByRole('link', { name: 'Request a new link' }).getAttribute('href')).toBe(
      '/auth/forgot',
    );
  });
});
