import { randomBytes } from 'node:crypto';
import type { Locator, Page, Route } from 'playwright-core';
import type { Language } from '@cadence/shared/errors';

export interface TestUser {
  name: string;
  email: string;
  password: string;
}

export function newUser(prefix = 'creator'): TestUser {
  const id = randomBytes(4).toString('hex');
  return { name: `Créatrice ${id}`, email: `${prefix}-${id}@example.com`, password: `pass-${id}` };
}

/** Signs up through the real form (French UI by default) and waits for the accounts page. */
export async function signUp(page: Page, user: TestUser = newUser()): Promise<TestUser> {
  await page.goto('/auth');
  await page.getByRole('tab', { name: /Inscription|Sign up/ }).click();
  await page.getByLabel(/^(Nom|Name)$/).fill(user.name);
  await page.getByLabel(/^Email$/).fill(user.email);
  await page.getByLabel(/^(Mot de passe|Password)$/).fill(user.password);
  await page.getByRole('button', { name: /^(S'inscrire|Sign up)$/ }).click();
  await page.waitForURL('**/tiktok');
  return user;
}

export async function logIn(page: Page, user: TestUser): Promise<void> {
  await page.goto('/auth');
  await page.getByLabel(/^Email$/).fill(user.email);
  await page.getByLabel(/^(Mot de passe|Password)$/).fill(user.password);
  await page.getByRole('button', { name: /^(Se connecter|Log in)$/ }).click();
  await page.waitForURL('**/tiktok');
}

/**
 * Signs `user` up (as `signUp` without the form: the same request, with the language and the
 * browser's time zone the form sends) or in, through the API, into the page's context: for tests
 * about what comes after, a page load and a form fewer each. The forms themselves are
 * foundation.e2e.ts's.
 */
export async function signUpThroughApi(
  page: Page,
  user: TestUser = newUser(),
  preferredLanguage: Language = 'fr',
): Promise<TestUser> {
  const timeZone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
  const response = await page.request.post('/api/auth/sign-up/email', {
    data: { ...user, preferredLanguage, timeZone },
  });
  if (!response.ok())
    throw new Error(`sign-up failed: ${response.status()} ${await response.text()}`);
  return user;
}

/** Signs `user` in through the API (see signUpThroughApi). */
export async function logInThroughApi(page: Page, user: TestUser): Promise<void> {
  const response = await page.request.post('/api/auth/sign-in/email', {
    data: { email: user.email, password: user.password },
  });
  if (!response.ok())
    throw new Error(`log-in failed: ${response.status()} ${await response.text()}`);
}

export const accountCard = (page: Page, username: string): Locator =>
  page.getByRole('article', { name: `@${username}`, exact: true });
export const accountsBanner = (page: Page): Locator => page.getByTestId('accounts-banner');

/** Adds an account on /tiktok through the "Add account" form and waits for its card. */
export async function addAccount(page: Page, username: string): Promise<void> {
  await page.getByRole('button', { name: /^(Ajouter un compte|Add account)$/ }).click();
  await page.getByLabel(/^(Nom d'utilisateur TikTok|TikTok username)$/).fill(username);
  await page.getByRole('button', { name: /^(Ajouter|Add)$/ }).click();
  await accountCard(page, username).waitFor();
}

/**
 * Card's Connect (or Reconnect) → the sandbox's consent page → Authorize or Deny → back on
 * /tiktok, with the outcome's banner, or (`expect: 'mismatch'`, another TikTok user than the
 * card's) the dialog asking to keep or cancel. Returns the username the consent page offered.
 */
export async function connectThroughSandbox(
  page: Page,
  cardUsername: string,
  tiktokUsername: string,
  choice: 'Authorize' | 'Deny' = 'Authorize',
  expect: 'banner' | 'mismatch' = 'banner',
): Promise<string> {
  await accountCard(page, cardUsername)
    .getByRole('button', { name: /^(Connecter|Reconnecter|Connect|Reconnect) @/ })
    .click();
  await page.waitForURL('**/sandbox/tiktok/v2/auth/authorize/**');
  const field = page.getByLabel('TikTok username');
  const offered = await field.inputValue();
  await field.fill(tiktokUsername);
  await page.getByRole('button', { name: choice }).click();
  // The query parameters the callback adds are read, then removed from the address.
  await page.waitForURL((url) => url.pathname === '/tiktok' && url.search === '');
  if (expect === 'banner') await accountsBanner(page).waitFor();
  else
    await mismatchDialog(page)
      .getByRole('button', { name: /^(Garder|Keep) / })
      .waitFor();
  return offered;
}

/** 'Vous avez autorisé @x, mais cette carte est @y': keep or cancel. */
export const mismatchDialog = (page: Page): Locator =>
  page.getByRole('dialog', {
    name: /^(Ce n'est pas le compte de cette carte|This is not this card's account)$/,
  });

/** The list a picker (role combobox, `components/ui/picker.tsx`) opens: the one it controls. */
export async function pickerList(picker: Locator): Promise<Locator> {
  const listId = await picker.getAttribute('aria-controls');
  if (listId === null) throw new Error('the picker controls no list');
  return picker.page().locator(`[id="${listId}"]`);
}

/**
 * Opens `picker` with a click (unless it is open) and clicks the option whose accessible name matches `name`, as a
 * person would; waits for the list to close.
 */
export async function pick(picker: Locator, name: RegExp | string): Promise<void> {
  if ((await picker.getAttribute('aria-expanded')) !== 'true') await picker.click();
  const list = await pickerList(picker);
  await list.getByRole('option', { name, exact: typeof name === 'string' }).click();
  await picker.and(picker.page().locator('[aria-expanded="false"]')).waitFor();
}

/**
 * Chooses the TikTok account `username` in the form's account picker: its option reads
 * '@username' followed by the day's count against TikTok's cap ('@lea · 3/15 aujourd'hui').
 */
export async function chooseAccount(picker: Locator, username: string): Promise<void> {
  await pick(picker, new RegExp(`^@${username.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}( ·|$)`));
}

/**
 * The longest username the account pickers are made for (issue 15). Cadence's card form takes 64
 * characters and the sandbox's consent page 24, so `showAsLongestUsername` puts it in the
 * account list's answer.
 */
export const longestUsername = 'username_without_a_single_space_'.repeat(4).slice(0, 100);

/** Rewrites `page`'s account list (GET /api/accounts) so `username` reads `longestUsername`. */
export async function showAsLongestUsername(page: Page, username: string): Promise<void> {
  await page.route('**/api/accounts', async (route) => {
    // Adding a card (POST) goes through untouched.
    if (route.request().method() !== 'GET') return route.fallback();
    try {
      const response = await route.fetch();
      const body = (await response.json()) as { accounts: { username: string }[] };
      for (const account of body.accounts) {
        if (account.username === username) account.username = longestUsername;
      }
      await route.fulfill({ response, json: body });
    } catch (error) {
      // A page closed meanwhile (its context disposed) has no use for the answer.
      if (!page.isClosed()) throw error;
    }
  });
}

/**
 * The focused element's aria-label ('' when none). Poll it: a screen moves focus in an effect
 * after it draws, so one read right after the element appears may still see the old focus.
 */
export function focusedLabel(page: Page): Promise<string> {
  return page.evaluate<string>('document.activeElement?.getAttribute("aria-label") ?? ""');
}

/**
 * Holds the page's tus PATCH requests (an upload's bytes) back, so an upload stays in progress
 * for as long as a test needs; `onlyFirst`: the first one alone. Returns the held requests, in
 * order, for the test to `continue()`.
 */
export async function holdUploadBytes(page: Page, { onlyFirst = false } = {}): Promise<Route[]> {
  const held: Route[] = [];
  await page.route('**/api/uploads/**', async (route) => {
    if (route.request().method() === 'PATCH' && !(onlyFirst && held.length > 0)) held.push(route);
    else await route.continue();
  });
  return held;
}

/**
 * Whether leaving the page now would ask first: a beforeunload listener cancels the event. (The
 * browser's own question shows only after a real gesture on the page; this asks the page alone.)
 */
export function leavingAsks(page: Page): Promise<boolean> {
  return page.evaluate<boolean>(`(() => {
    const event = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(event);
    return event.defaultPrevented;
  })()`);
}

/**
 * What holds the keyboard focus ('body' when nothing does: a screen reader starts over from the
 * top). Poll it, as focusedLabel.
 */
export interface FocusedElement {
  tag: string;
  /** Its aria-label, else its label's text, else its text. */
  name: string;
  invalid: boolean;
  /** The text of what aria-describedby points at (a field's hint and error). */
  description: string;
  /** The title of the settings section it is in ('' outside one). */
  section: string;
}

export const focusedElement = (page: Page): Promise<FocusedElement> =>
  page.evaluate<FocusedElement>(`(() => {
    const element = document.activeElement;
    if (!element || element === document.body)
      return { tag: 'body', name: '', invalid: false, description: '', section: '' };
    const labels = element.labels ? [...element.labels].map((label) => label.textContent).join(' ') : '';
    const described = (element.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean);
    const section = element.closest('section[aria-labelledby]');
    return {
      tag: element.tagName.toLowerCase(),
      name: (element.getAttribute('aria-label') || labels || element.textContent || '').trim(),
      invalid: element.getAttribute('aria-invalid') === 'true',
      description: described.map((id) => document.getElementById(id)?.textContent ?? '').join(' '),
      section: section ? document.getElementById(section.getAttribute('aria-labelledby'))?.textContent ?? '' : '',
    };
  })()`);

/**
 * Holds the page's GET /api/public-config back until `release()`, to show what a screen does
 * before it knows the server's configuration. `held()` counts the requests waiting.
 */
export async function holdPublicConfig(
  page: Page,
): Promise<{ held: () => number; release: () => Promise<void> }> {
  const waiting: Route[] = [];
  await page.route('**/api/public-config', (route) => {
    waiting.push(route);
  });
  return {
    held: () => waiting.length,
    release: async () => {
      await Promise.all(waiting.splice(0).map((route) => route.continue()));
    },
  };
}
