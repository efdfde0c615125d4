import { randomBytes } from 'node:crypto';
import type { Locator, Page } from 'playwright-core';

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

/**
 * Chooses the TikTok account `username` in the form's account select: its option reads
 * '@username' followed by the day's count against TikTok's cap ('@lea · 3/15 aujourd'hui').
 */
export async function chooseAccount(select: Locator, username: string): Promise<void> {
  const option = select
    .locator('option')
    .filter({ hasText: new RegExp(`^@${username.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}( ·|$)`) });
  const value = await option.getAttribute('value');
  if (value === null) throw new Error(`no account option for @${username}`);
  await select.selectOption(value);
}
