// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { resources } from '../../../lib/i18n.ts';
import { MemeForm } from './meme-form.tsx';

const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.use(initReactI18next).init({ resources, lng: 'fr', fallbackLng: false });
});

/** Every request the form makes, and what the API answers to POST /api/memes. */
let requests: { method: string; path: string; body: unknown }[];
let memesAnswer: { status: number; body: unknown };

beforeEach(() => {
  requests = [];
  memesAnswer = { status: 503, body: { code: 'unavailable', message: 'down' } };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (path: string, init?: RequestInit) => {
      const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : null;
      requests.push({ method: init?.method ?? 'GET', path, body });
      const answer =
        path === '/api/memes' ? memesAnswer : { status: 404, body: { code: 'not_found' } };
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

function renderForm(language: 'fr' | 'en') {
  void i18n.changeLanguage(language);
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  // In a data router, as in the app: the form guards its upload against in-app links.
  const router = createMemoryRouter([
    {
      path: '/',
      element: (
        <MemeForm mode="youtube" onModeChange={() => {}} running={false} onCreated={() => {}} />
      ),
    },
  ]);
  render(
    <QueryClientProvider client={queryClient}>
      <I18nextProvider i18n={i18n}>
        <RouterProvider router={router} />
      </I18nextProvider>
    </QueryClientProvider>,
  );
}

const texts = {
  fr: {
    field: 'Lien de la vidéo YouTube',
    submit: 'Détecter les memes',
    invalid: 'Veuillez entrer une URL YouTube valide',
  },
  en: {
    field: 'YouTube video link',
    submit: 'Detect memes',
    invalid: 'Please enter a valid YouTube URL',
  },
} as const;

async function submitLink(language: 'fr' | 'en', link: string) {
  renderForm(language);
  const user = userEvent.setup();
  await user.type(screen.getByLabelText(texts[language].field), link);
  await user.click(screen.getByRole('button', { name: texts[language].submit }));
}

const postsToMemes = () => requests.filter((r) => r.method === 'POST' && r.path === '/api/memes');

describe('the meme form’s YouTube link', () => {
  // Regression: the form let through any text containing 'youtube.com/' or 'youtu.be/', such as
  // links to the server's own network, and the server fetched them.
  it.each([
    ['fr', 'http://127.0.0.1:8080/youtu.be/x'],
    ['en', 'http://localhost:5432/?youtube.com/'],
    ['fr', 'https://youtube.com@127.0.0.1/youtu.be/dQw4w9WgXcQ'],
    ['en', 'https://evil.com/youtube.com/watch?v=dQw4w9WgXcQ'],
    ['fr', 'https://www.youtube.com/playlist?list=PL0'],
  ] as const)('(%s) refuses %s under the field, sending nothing', async (language, link) => {
    await submitLink(language, link);
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', texts[language].invalid);
    expect(screen.getByLabelText(texts[language].field).getAttribute('aria-invalid')).toBe('true');
    expect(postsToMemes()).toEqual([]);
  });

  it.each(['fr', 'en'] as const)(
    '(%s) sends a YouTube video link, and shows the server’s refusal under the field',
    async (language) => {
      memesAnswer = {
        status: 400,
        body: {
          code: 'validation_failed',
          message: 'Invalid request',
          fields: { 'source.url': 'memes.errors.invalidUrl' },
        },
      };
      await submitLink(language, '  youtu.be/dQw4w9WgXcQ?si=abc ');
      expect(await screen.findByRole('alert')).toHaveProperty(
        'textContent',
        texts[language].invalid,
      );
      expect(postsToMemes()).toEqual([
        {
          method: 'POST',
          path: '/api/memes',
          body: { source: { type: 'youtube', url: 'youtu.be/dQw4w9WgXcQ?si=abc' }, layout: 'crop' },
        },
      ]);
    },
  );
});
