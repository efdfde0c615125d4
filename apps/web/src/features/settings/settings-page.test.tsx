// @vitest-environment jsdom
import type { DataExport, Me } from '@cadence/shared/schemas/user';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { resources } from '../../lib/i18n.ts';
import { SettingsPage } from './settings-page.tsx';

const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.use(initReactI18next).init({ resources, lng: 'fr', fallbackLng: false });
});

const firefox = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0';
const iphone =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const session = (id: string, userAgent: string, createdAt: string) => ({
  id,
  createdAt,
  updatedAt: createdAt,
  expiresAt: '2030-01-01T00:00:00.000Z',
  ipAddress: '192.0.2.1',
  userAgent,
  userId: 'u1',
});

let requests: { method: string; path: string; body: unknown }[];
let sessions: ReturnType<typeof session>[];
let changePasswordAnswer: { status: number; body: unknown };
let dataExport: DataExport | null;
let me: Me;
/** PATCH /api/me's answer when not the updated person (a refusal). */
let patchMeRefusal: { status: number; body: unknown } | null;

beforeEach(() => {
  requests = [];
  sessions = [
    session('other', iphone, '2026-03-01T08:00:00.000Z'),
    session('this', firefox, '2026-02-01T08:00:00.000Z'),
  ];
  changePasswordAnswer = { status: 200, body: { token: null } };
  dataExport = null;
  patchMeRefusal = null;
  me = {
    id: 'u1',
    name: 'Zoé',
    email: 'zoe@example.com',
    isPro: false,
    preferredLanguage: 'fr',
    timeZone: 'Europe/Paris',
    emailVerified: true,
    pendingEmail: null,
    createdAt: '2026-01-01T00:00:00.000Z',
  };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (path: string, init?: RequestInit) => {
      const method = init?.method ?? 'GET';
      const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : null;
      requests.push({ method, path, body });
      const answer = ((): { status: number; body: unknown } => {
        switch (`${method} ${path}`) {
          case 'GET /api/me':
            return { status: 200, body: me };
          case 'PATCH /api/me':
            if (patchMeRefusal) return patchMeRefusal;
            me = { ...me, ...(body as Partial<Me>) };
            return { status: 200, body: me };
          case 'GET /api/auth/list-sessions':
            return { status: 200, body: sessions };
          case 'GET /api/auth/get-session':
            return { status: 200, body: { session: { id: 'this' }, user: { id: 'u1' } } };
          case 'POST /api/auth/update-user':
            return { status: 200, body: { status: true } };
          case 'POST /api/auth/change-password':
            return changePasswordAnswer;
          case 'GET /api/me/export':
            return { status: 200, body: { export: dataExport } };
          case 'POST /api/me/export':
            dataExport = {
              id: '00000000-0000-4000-8000-000000000001',
              status: 'running',
              progress: 40,
              sizeBytes: null,
              createdAt: '2026-01-02T00:00:00.000Z',
              readyAt: null,
              expiresAt: null,
              downloadUrl: null,
            };
            return { status: 202, body: { export: dataExport } };
          case 'POST /api/me/email':
            return {
              status: 200,
              body: { ...me, pendingEmail: (body as { newEmail: string }).newEmail },
            };
          case 'POST /api/auth/revoke-other-sessions':
            sessions = sessions.filter((item) => item.id === 'this');
            return { status: 200, body: { status: true } };
          default:
            return { status: 404, body: { code: 'not_found' } };
        }
      })();
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

function renderPage(language: 'fr' | 'en' = 'fr') {
  void i18n.changeLanguage(language);
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  render(
    <QueryClientProvider client={queryClient}>
      <I18nextProvider i18n={i18n}>
        <MemoryRouter>
          <SettingsPage />
        </MemoryRouter>
      </I18nextProvider>
    </QueryClientProvider>,
  );
}

const posts = (path: string) =>
  requests.filter((r) => r.method === 'POST' && r.path === path).map((r) => r.body);

describe('the settings page', () => {
  it('shows the profile, language, password and sessions sections with their names', async () => {
    renderPage();
    await screen.findByRole('heading', { level: 1, name: 'Paramètres' });
    for (const name of ['Profil', 'Langue', 'Mot de passe', 'Sessions']) {
      expect(screen.getByRole('region', { name })).toBeTruthy();
    }
    expect(screen.getByLabelText<HTMLInputElement>('Nom').value).toBe('Zoé');
    expect(screen.getByText('zoe@example.com')).toBeTruthy();
    expect(screen.getByRole<HTMLInputElement>('radio', { name: 'Français' }).checked).toBe(true);
  });

  it('saves a trimmed name and refuses an empty one with its message', async () => {
    renderPage();
    const user = userEvent.setup();
    const name = await screen.findByLabelText('Nom');
    await user.clear(name);
    await user.click(screen.getByRole('button', { name: 'Enregistrer le nom' }));
    expect(screen.getByText('Veuillez remplir tous les champs')).toBeTruthy();
    expect(posts('/api/auth/update-user')).toEqual([]);

    await user.type(name, '  Zoé Martin ');
    await user.click(screen.getByRole('button', { name: 'Enregistrer le nom' }));
    await screen.findByText('Nom enregistré.');
    expect(posts('/api/auth/update-user')).toEqual([{ name: 'Zoé Martin' }]);
  });

  it('changes the password only with matching new passwords, and names a wrong current one', async () => {
    renderPage();
    const user = userEvent.setup();
    const current = await screen.findByLabelText('Mot de passe actuel');
    const fresh = screen.getByLabelText('Nouveau mot de passe');
    const confirm = screen.getByLabelText('Confirmez le nouveau mot de passe');
    const submit = screen.getByRole('button', { name: 'Changer le mot de passe' });

    await user.type(current, 'old-secret');
    await user.type(fresh, 'new-secret');
    await user.type(confirm, 'new-secreT');
    await user.click(submit);
    expect(screen.getByText('Les deux mots de passe ne correspondent pas')).toBeTruthy();
    expect(posts('/api/auth/change-password')).toEqual([]);

    changePasswordAnswer = {
      status: 400,
      body: {
        code: 'validation_failed',
        message: 'Invalid password',
        fields: { currentPassword: 'auth.errors.wrongCurrentPassword' },
      },
    };
    await user.clear(confirm);
    await user.type(confirm, 'new-secret');
    await user.click(submit);
    await screen.findByText('Le mot de passe actuel est incorrect');
    expect(current.getAttribute('aria-invalid')).toBe('true');

    changePasswordAnswer = { status: 200, body: { token: null } };
    dataExport = null;
    await user.click(submit);
    await screen.findByText('Mot de passe changé. Vos autres sessions ont été déconnectées.');
    expect(posts('/api/auth/change-password').at(-1)).toEqual({
      currentPassword: 'old-secret',
      newPassword: 'new-secret',
    });
    expect((current as HTMLInputElement).value).toBe('');
  });

  it('lists this session first and signs out everywhere else', async () => {
    renderPage('en');
    const user = userEvent.setup();
    const list = await screen.findByRole('list', { name: 'Open sessions' });
    const items = within(list).getAllByRole('listitem');
    expect(items[0]!.textContent).toContain('Firefox on Windows');
    expect(items[0]!.textContent).toContain('This session');
    expect(items[1]!.textContent).toContain('Safari on iOS');
    expect(within(items[0]!).queryByRole('button')).toBeNull();
    expect(
      within(items[1]!).getByRole('button', { name: /^Sign out the Safari on iOS session of / }),
    ).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Sign out everywhere else' }));
    await screen.findByText('Your other sessions have been signed out.');
    expect(posts('/api/auth/revoke-other-sessions')).toEqual([{}]);
    await waitFor(() =>
      expect(
        within(screen.getByRole('list', { name: 'Open sessions' })).getAllByRole('listitem'),
      ).toHaveLength(1),
    );
    // Unavailable, and still holding the focus it had when pressed (aria-disabled, not disabled).
    const revokeOthers = screen.getByRole('button', { name: 'Sign out everywhere else' });
    expect(revokeOthers.getAttribute('aria-disabled')).toBe('true');
    expect(document.activeElement).toBe(revokeOthers);
  });

  it('stores the language chosen on the account', async () => {
    renderPage();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('radio', { name: 'English' }));
    await screen.findByRole('heading', { level: 1, name: 'Settings' });
    await screen.findByText('Language saved.');
    expect(document.documentElement.lang).toBe('en');
    expect(
      requests.filter((r) => r.method === 'PATCH' && r.path === '/api/me').map((r) => r.body),
    ).toEqual([{ preferredLanguage: 'en' }]);
  });

  it('asks for my data archive and shows its preparation', async () => {
    renderPage();
    const user = userEvent.setup();
    const section = await screen.findByRole('region', { name: 'Télécharger mes données' });
    await user.click(within(section).getByRole('button', { name: 'Préparer mon archive' }));
    await within(section).findByText('Préparation de votre archive : 40 %');
    expect(
      within(section).getByRole('progressbar', {
        name: "Avancement de la préparation de l'archive",
      }),
    ).toBeTruthy();
    // No second archive while this one is prepared; the button stays, and keeps the focus.
    const again = within(section).getByRole('button', { name: 'Préparer une nouvelle archive' });
    expect(again.getAttribute('aria-disabled')).toBe('true');
    expect(document.activeElement).toBe(again);
    expect(posts('/api/me/export')).toEqual([null]);
  });

  it('asks for an email change with the password, and shows it pending', async () => {
    renderPage();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: "Changer d'adresse email" }));
    await user.click(screen.getByRole('button', { name: 'Envoyer le lien de confirmation' }));
    expect(await screen.findByText('Adresse email invalide')).toBeTruthy();
    await user.type(screen.getByLabelText('Nouvelle adresse email'), 'zoe-new@example.com');
    const profile = screen.getByRole('region', { name: 'Profil' });
    await user.type(
      within(profile).getByLabelText('Votre mot de passe, pour confirmer'),
      'secret123',
    );
    await user.click(screen.getByRole('button', { name: 'Envoyer le lien de confirmation' }));
    await screen.findByText(/Si cette adresse peut être utilisée/);
    expect(posts('/api/me/email')).toEqual([
      { newEmail: 'zoe-new@example.com', password: 'secret123' },
    ]);
  });

  it("offers the browser's zone first, finds a zone by its city, and moves the page's times to it", async () => {
    renderPage();
    const user = userEvent.setup();
    const field = await screen.findByRole('combobox', { name: 'Fuseau horaire' });
    expect(field.getAttribute('value')).toBe('Paris (Europe)');
    expect(screen.getByTestId('time-zone-now').textContent).toMatch(
      /^Il est actuellement \d\d:\d\d, heure de Paris \(UTC\+[12]\)\.$/,
    );
    // The session opened at 08:00 UTC on 1 March shows on Paris's clocks.
    const sessions = await screen.findByRole('list', { name: 'Sessions ouvertes' });
    expect(sessions.textContent).toContain('1er mars 2026, 09:00');

    await user.click(screen.getByRole('button', { name: 'Afficher tous les fuseaux horaires' }));
    // Every zone (counted without role queries: several hundred options are slow in jsdom).
    const options = screen.getByRole('listbox').querySelectorAll('[role="option"]');
    expect(options.length).toBeGreaterThan(300);
    expect(options[0]!.textContent).toContain('Ce navigateur');
    await user.keyboard('{Escape}');

    await user.clear(field);
    await user.paste('zzz');
    expect(screen.getByRole('status').textContent).toBe('Aucun fuseau ne correspond à « zzz ».');
    await user.clear(field);
    await user.paste('new york');
    const found = within(screen.getByRole('listbox')).getAllByRole('option');
    expect(found.map((option) => option.textContent)).toEqual(['New York (America)UTC−5']);
    await user.click(found[0]!);
    expect(field.getAttribute('value')).toBe('New York (America)');
    expect(screen.getByTestId('time-zone-now').textContent).toMatch(
      /^Il est actuellement \d\d:\d\d, heure de New York \(UTC−[45]\)\.$/,
    );
    // Nothing is saved until asked, and nothing moves meanwhile.
    expect(requests.filter((r) => r.method === 'PATCH')).toEqual([]);
    expect(sessions.textContent).toContain('1er mars 2026, 09:00');

    await user.click(screen.getByRole('button', { name: 'Enregistrer le fuseau' }));
    await screen.findByText('Fuseau horaire enregistré : heure de New York.');
    expect(
      requests.filter((r) => r.method === 'PATCH' && r.path === '/api/me').map((r) => r.body),
    ).toEqual([{ timeZone: 'America/New_York' }]);
    // Every time on the page follows at once: 08:00 UTC is 03:00 in New York (EST).
    const moved = screen.getByRole('list', { name: 'Sessions ouvertes' });
    await waitFor(() => expect(moved.textContent).toContain('1er mars 2026, 03:00'));
    expect(screen.getByText(/ne déplace pas vos publications prévues/)).toBeTruthy();
  });

  it('says why the server refused a zone, in the interface language', async () => {
    patchMeRefusal = {
      status: 400,
      body: {
        code: 'validation',
        message: 'Invalid body',
        fields: { timeZone: 'errors.invalidTimeZone' },
      },
    };
    renderPage('en');
    const user = userEvent.setup();
    const field = await screen.findByRole('combobox', { name: 'Time zone' });
    await user.clear(field);
    await user.paste('tokyo');
    await user.keyboard('{ArrowDown}{Enter}');
    expect(field.getAttribute('value')).toBe('Tokyo (Asia)');
    await user.click(screen.getByRole('button', { name: 'Save time zone' }));
    await screen.findByText('Unknown time zone: reload the page');
    expect(screen.queryByText(/^Time zone saved/)).toBeNull();
  });
});
