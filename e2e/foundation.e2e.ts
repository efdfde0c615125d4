import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  addAccount,
  connectThroughSandbox,
  focusedElement,
  focusedLabel,
  logIn,
  newUser,
  signUp,
  type FocusedElement,
} from './support/actions.ts';
import { runAdmin } from './support/server.ts';
import { useBrowserSuite } from './support/suite.ts';

const suite = useBrowserSuite({
  COMPANY_NUMBER: '12345678',
  DATA_PROTECTION_NUMBER: 'ZB987654',
  CONTACT_EMAIL: 'hello@cadence.test',
});
const { openPage } = suite;

const header = (page: Page) =>
  page.getByRole('navigation', { name: /Navigation principale|Main navigation/ });

describe('signed out', () => {
  it('sends /, app routes and unknown paths to /auth', async () => {
    const page = await openPage();
    for (const route of [
      '/',
      '/tiktok',
      '/scheduler',
      '/stories',
      '/memes',
      '/some/unknown/path',
    ]) {
      await page.goto(route);
      await page.waitForURL('**/auth');
      await page.getByRole('tab', { name: 'Connexion' }).waitFor();
    }
  });

  it('shows privacy and terms publicly, in English, without header or footer, with configured company details', async () => {
    const page = await openPage();
    await page.goto('/privacy');
    await page.getByRole('heading', { name: 'Privacy Policy' }).waitFor();
    for (const section of [
      'Information we collect',
      'How we use your data',
      'How we protect your data',
      'Your rights',
      'Company information',
      'Contact',
    ]) {
      await expect(page.getByRole('heading', { name: new RegExp(section) }).count()).resolves.toBe(
        1,
      );
    }
    const privacy = await page.textContent('body');
    expect(privacy).toContain('12345678');
    expect(privacy).toContain('ZB987654');
    expect(privacy).toContain('hello@cadence.test');
    expect(privacy).toMatch(/access.*correct.*delete.*withdraw/s);
    await expect(header(page).count()).resolves.toBe(0);
    await expect(page.getByRole('contentinfo').count()).resolves.toBe(0);
    // English text in a French app: the document says so, in a main landmark, with a way back.
    await expect(page.evaluate('document.documentElement.lang')).resolves.toBe('en');
    await expect(page.title()).resolves.toBe('Privacy Policy · Cadence');
    await expect(page.getByRole('main').count()).resolves.toBe(1);
    await page.getByRole('link', { name: 'Back to Cadence' }).click();
    await page.waitForURL('**/auth', { waitUntil: 'commit' });
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await expect(page.evaluate('document.documentElement.lang')).resolves.toBe('fr');
    await expect(page.title()).resolves.toBe('Connexion · Cadence');

    await page.goto('/terms');
    await page.getByRole('heading', { name: 'Terms of Service' }).waitFor();
    for (const section of [
      'Acceptance',
      'Description of the service',
      'Your account',
      'Acceptable use',
      'Limitation of liability',
      'Company information',
      'Modifications',
      'Contact',
    ]) {
      await expect(page.getByRole('heading', { name: new RegExp(section) }).count()).resolves.toBe(
        1,
      );
    }
    await expect(header(page).count()).resolves.toBe(0);
  });

  it('shows a full-screen spinner, not the wrong screen, while the session resolves', async () => {
    const page = await openPage();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/me', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/tiktok', { waitUntil: 'domcontentloaded' });
    await page.getByRole('status').waitFor();
    await expect(page.getByRole('tab', { name: 'Connexion' }).count()).resolves.toBe(0);
    await expect(header(page).count()).resolves.toBe(0);
    release();
    await page.waitForURL('**/auth');
  });
});

describe('auth screen', () => {
  it('shows every error of spec §8 with its exact French text', async () => {
    const page = await openPage({ allowConsoleErrors: [/status of 502/] });
    const existing = newUser();
    await signUp(page, existing);
    await page.getByRole('button', { name: 'Déconnexion' }).click();
    await page.waitForURL('**/auth');

    const alert = page.getByRole('alert');
    const submitLogin = page.getByRole('button', { name: 'Se connecter' });
    await submitLogin.click();
    expect(await alert.textContent()).toBe('Veuillez remplir tous les champs');

    await page.getByLabel('Email').fill(existing.email);
    await page.getByLabel('Mot de passe').fill('not-the-password');
    await submitLogin.click();
    await page.getByText('Email ou mot de passe incorrect').waitFor();

    await page.getByRole('tab', { name: 'Inscription' }).click();
    const submitSignup = page.getByRole('button', { name: "S'inscrire" });
    await page.getByLabel('Email').fill('');
    await submitSignup.click();
    expect(await alert.textContent()).toBe('Veuillez remplir tous les champs');

    await page.getByLabel('Nom').fill('Zoé');
    await page.getByLabel('Email').fill(existing.email);
    await page.getByLabel('Mot de passe').fill('secret1');
    await submitSignup.click();
    await page.getByText('Cette adresse email est déjà utilisée').waitFor();

    await page.getByLabel('Email').fill('zoe-at-example.com');
    await submitSignup.click();
    await page.getByText('Adresse email invalide').waitFor();

    await page.getByLabel('Email').fill('zoe@example.com');
    await page.getByLabel('Mot de passe').fill('12345');
    await submitSignup.click();
    await page.getByText('Le mot de passe doit contenir au moins 6 caractères').waitFor();

    // A server failure nobody planned for: the generic message, not a stack trace.
    await page.route('**/api/auth/sign-up/email', (route) =>
      route.fulfill({ status: 502, body: 'Bad gateway' }),
    );
    await page.getByLabel('Mot de passe').fill('secret1');
    await submitSignup.click();
    await page.getByText('Une erreur est survenue. Veuillez réessayer.').waitFor();
  });

  it('shows the same errors in English after switching language', async () => {
    const page = await openPage({ allowConsoleErrors: [/status of 502/] });
    // An existing account, made through the API (faster than the form); the page stays signed out.
    const existing = newUser();
    const created = await page.request.post('/api/auth/sign-up/email', {
      data: existing,
      headers: { origin: suite.server().url },
    });
    expect(created.status()).toBe(200);
    await page.context().clearCookies();

    await page.goto('/auth');
    await page.getByRole('button', { name: 'EN' }).click();
    await page.getByRole('tab', { name: 'Log in' }).waitFor();
    const alert = page.getByRole('alert');
    const submitLogin = page.getByRole('button', { name: 'Log in' });
    await submitLogin.click();
    expect(await alert.textContent()).toBe('Please fill in all fields');
    await page.getByLabel('Email').fill(existing.email);
    await page.getByLabel('Password').fill('not-the-password');
    await submitLogin.click();
    await page.getByText('Incorrect email or password').waitFor();

    await page.getByRole('tab', { name: 'Sign up' }).click();
    const submitSignup = page.getByRole('button', { name: 'Sign up', exact: true });
    await page.getByLabel('Email').fill('');
    await submitSignup.click();
    expect(await alert.textContent()).toBe('Please fill in all fields');

    await page.getByLabel('Name').fill('Zoe');
    await page.getByLabel('Email').fill(existing.email);
    await page.getByLabel('Password').fill('secret1');
    await submitSignup.click();
    await page.getByText('This email address is already in use').waitFor();

    await page.getByLabel('Email').fill('zoe-at-example.com');
    await submitSignup.click();
    await page.getByText('Invalid email address').waitFor();

    await page.getByLabel('Email').fill('zoe@example.com');
    await page.getByLabel('Password').fill('12345');
    await submitSignup.click();
    await page.getByText('Password must be at least 6 characters').waitFor();

    await page.route('**/api/auth/sign-up/email', (route) =>
      route.fulfill({ status: 502, body: 'Bad gateway' }),
    );
    await page.getByLabel('Password').fill('secret1');
    await submitSignup.click();
    await page.getByText('An error occurred. Please try again.').waitFor();
  });

  it("disables the button and reads 'Chargement...' while signing in", async () => {
    const page = await openPage();
    const user = newUser();
    await signUp(page, user);
    await page.getByRole('button', { name: 'Déconnexion' }).click();
    await page.waitForURL('**/auth');
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/auth/sign-in/email', async (route) => {
      await held;
      await route.continue();
    });
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Mot de passe').fill(user.password);
    await page.getByRole('button', { name: 'Se connecter' }).click();
    const busy = page.getByRole('button', { name: 'Chargement...' });
    await busy.waitFor();
    expect(await busy.isDisabled()).toBe(true);
    release();
    await page.waitForURL('**/tiktok');
  });
});

describe('signed in', () => {
  it('lands on /tiktok, keeps signed-in people away from /auth, and shows not-found for unknown paths', async () => {
    const page = await openPage();
    await signUp(page);
    await page.getByRole('heading', { name: 'Automatisation TikTok' }).waitFor();
    // The account starts in the browser's time zone.
    const zones = await page.evaluate(
      "fetch('/api/me').then((r) => r.json()).then((me) => [me.timeZone, Intl.DateTimeFormat().resolvedOptions().timeZone])",
    );
    expect((zones as [string, string])[0]).toBe((zones as [string, string])[1]);
    const cookies = await page.context().cookies();
    const session = cookies.find((c) => c.name === 'cadence.session_token');
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
    const days = (session!.expires * 1000 - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);

    await page.goto('/auth');
    await page.waitForURL('**/tiktok');
    await page.goto('/');
    await page.waitForURL('**/tiktok');

    await page.goto('/this/does/not/exist');
    await page.getByRole('heading', { name: 'Page introuvable' }).waitFor();
    await page.getByRole('link', { name: "Retour à l'accueil" }).click();
    await page.waitForURL('**/tiktok');

    const nav = header(page);
    await expect(nav.getByRole('link').allTextContents()).resolves.toEqual([
      'Comptes TikTok',
      'Programmateur de vidéos',
      'Statistiques',
    ]);
    await page.getByRole('link', { name: 'Politique de confidentialité' }).waitFor();
    await page.getByRole('link', { name: "Conditions d'utilisation" }).waitFor();
  });

  it('switches language instantly, keeps it across reloads and on the next sign-in elsewhere', async () => {
    const page = await openPage();
    const user = await signUp(page);
    await page.getByRole('button', { name: 'EN' }).first().click();
    await page.getByRole('heading', { name: 'TikTok Automation' }).waitFor();
    await expect(header(page).getByRole('link').allTextContents()).resolves.toEqual([
      'TikTok accounts',
      'Video scheduler',
      'Analytics',
    ]);
    expect(await page.getAttribute('html', 'lang')).toBe('en');
    await page.reload();
    await page.getByRole('heading', { name: 'TikTok Automation' }).waitFor();

    // A new device (fresh storage) in French: the account's choice comes back on sign-in.
    const other = await openPage();
    await other.goto('/auth');
    await other.getByRole('tab', { name: 'Connexion' }).waitFor();
    await logIn(other, user);
    await other.getByRole('heading', { name: 'TikTok Automation' }).waitFor();
  });

  it('gates Pro pages by the server record; the admin command unlocks tabs, badge and pages', async () => {
    const page = await openPage();
    const user = await signUp(page);
    await page.goto('/stories');
    await page.getByText('Cette fonctionnalité est réservée aux utilisateurs Pro').waitFor();
    await page.goto('/memes');
    await page.getByText('Cette fonctionnalité est réservée aux utilisateurs Pro').waitFor();
    await expect(page.getByTestId('pro-badge').count()).resolves.toBe(0);

    // Navigation state cannot fake Pro: only the server record counts.
    await page.evaluate(
      "history.pushState({ usr: { isPro: true }, key: 'x', idx: 1 }, '', '/stories')",
    );
    await page.reload();
    await page.getByText('Cette fonctionnalité est réservée aux utilisateurs Pro').waitFor();

    const granted = await runAdmin(suite.server(), 'pro', 'grant', user.email);
    expect(granted.stdout).toContain('via the running server');
    await page.reload();
    await page.getByRole('heading', { name: 'Créateur de Stories' }).waitFor();
    await page.getByTestId('pro-badge').waitFor();
    await expect(header(page).getByRole('link').allTextContents()).resolves.toEqual([
      'Créateur de Stories',
      'Détecteur de Memes',
      'Comptes TikTok',
      'Programmateur de vidéos',
      'Statistiques',
    ]);
    // Regression: at 1280 px in French every Pro tab wrapped onto two lines. Each stays on one,
    // and logout is still in view; narrower, the menu button takes over instead.
    for (const tab of await header(page).getByRole('link').all()) {
      expect((await tab.boundingBox())?.height).toBeLessThan(40);
    }
    const logout = await page.getByRole('button', { name: 'Déconnexion' }).boundingBox();
    expect((logout?.x ?? Infinity) + (logout?.width ?? 0)).toBeLessThanOrEqual(1280);
    await page.setViewportSize({ width: 1024, height: 800 });
    await page.getByRole('button', { name: 'Ouvrir le menu' }).waitFor();
    await expect(header(page).count()).resolves.toBe(0);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/memes');
    await page.getByRole('heading', { name: 'Détecteur de Memes YouTube' }).waitFor();

    await runAdmin(suite.server(), 'pro', 'revoke', user.email);
    await page.reload();
    await page.getByText('Cette fonctionnalité est réservée aux utilisateurs Pro').waitFor();
  });

  it('logs out on the server: the old session cookie no longer works', async () => {
    const page = await openPage();
    await signUp(page);
    const before = (await page.context().cookies()).find(
      (c) => c.name === 'cadence.session_token',
    )!;
    await page.getByRole('button', { name: 'Déconnexion' }).click();
    await page.waitForURL('**/auth');
    const replay = await fetch(`${suite.server().url}/api/me`, {
      headers: { cookie: `${before.name}=${before.value}` },
    });
    expect(replay.status).toBe(401);
    await page.goto('/tiktok');
    await page.waitForURL('**/auth');
  });

  // Regression: after signing up, and back from TikTok's consent page, focus was on <body>, so a
  // screen reader announced nothing of the new screen.
  it('moves focus to each new screen: its heading, or the message it opens with', async () => {
    const page = await openPage({ viewport: { width: 1280, height: 800 } });
    const expectFocus = (expected: Partial<FocusedElement>) =>
      expect.poll(() => focusedElement(page)).toMatchObject(expected);
    // The sign-in screen (loaded without the router) hands over to the app.
    const user = await signUp(page);
    await expectFocus({ tag: 'h1', name: 'Automatisation TikTok' });

    await header(page).getByRole('link', { name: 'Programmateur de vidéos' }).click();
    await expectFocus({ tag: 'h1', name: 'Programmateur de vidéos' });
    // A control that stays on the screen keeps the focus (the view tabs), and so does a filter.
    await page.getByRole('link', { name: 'Historique', exact: true }).click();
    await page.waitForURL('**/scheduler/history');
    await expectFocus({ tag: 'a', name: 'Historique' });
    await page.getByLabel('Statut', { exact: true }).focus();
    await page.getByLabel('Statut', { exact: true }).selectOption('failed');
    await page.waitForURL((url) => url.searchParams.get('status') === 'failed');
    await expectFocus({ tag: 'select' });

    // A page's first load is the browser's to announce.
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Programmateur de vidéos' }).waitFor();
    await expect(focusedElement(page)).resolves.toMatchObject({ tag: 'body' });

    await page.getByRole('button', { name: 'Déconnexion' }).click();
    await page.waitForURL('**/auth');
    await expectFocus({ tag: 'h1', name: 'Bon retour parmi nous' });

    // Back from TikTok's consent page (a fresh load): the outcome it opens with.
    await logIn(page, user);
    await addAccount(page, 'focus_after_consent');
    await connectThroughSandbox(page, 'focus_after_consent', 'focus_after_consent');
    await expectFocus({ name: 'Compte TikTok connecté : @focus_after_consent' });
  });

  it('offers a phone menu with every tab, the language toggle and logout', async () => {
    const page = await openPage({ viewport: { width: 390, height: 844 } });
    await signUp(page);
    await page.getByRole('button', { name: 'Ouvrir le menu' }).click();
    const menu = page.locator('#mobile-menu');
    await menu.getByRole('link', { name: 'Programmateur de vidéos' }).click();
    await page.waitForURL('**/scheduler');
    await page.getByRole('button', { name: 'Ouvrir le menu' }).click();
    await menu.getByRole('button', { name: 'EN' }).click();
    await page.getByRole('heading', { name: 'Video scheduler' }).waitFor();
    // Escape closes it and gives focus back to the button that opened it.
    await menu.getByRole('link', { name: 'TikTok accounts' }).focus();
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    await expect.poll(() => focusedLabel(page)).toBe('Open menu');
  });

  it('shows a friendly translated error screen with a way back when rendering fails', async () => {
    const page = await openPage({ allowConsoleErrors: [/.*/] });
    await signUp(page);
    await page.route('**/api/me', (route) =>
      route.fulfill({ status: 200, contentType: 'application/json', body: '{"unexpected":true}' }),
    );
    await page.reload();
    await page.getByRole('heading', { name: "Oups, quelque chose s'est mal passé" }).waitFor();
    await page.getByRole('button', { name: 'Recharger la page' }).waitFor();
    await page.unroute('**/api/me');
    await page.getByRole('link', { name: "Retour à l'accueil" }).click();
    await page.getByRole('heading', { name: 'Automatisation TikTok' }).waitFor();
  });
});
