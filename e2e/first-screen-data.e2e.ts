import type { Page, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { signUp } from './support/actions.ts';
import { useBrowserSuite } from './support/suite.ts';

// A signed-in page names its first screen's API requests in its head (apps/server/src/spa-pages.ts,
// apps/web/scripts/route-budgets.mjs): the browser sends them with the scripts, and the app's own
// requests take those answers instead of asking again. A preload the app does not take would be a
// second request (and a warning in the console); one for a signed-out visitor, a 401.

const suite = useBrowserSuite();
const { openPage } = suite;

/**
 * Every API request the page makes from now on, by address, with how it was made. From a blank
 * page: the screen left behind may still be asking.
 */
async function recordApiRequests(page: Page): Promise<Map<string, string[]>> {
  await page.goto('about:blank');
  const made = new Map<string, string[]>();
  page.on('request', (request: Request) => {
    const url = new URL(request.url());
    if (!url.pathname.startsWith('/api/')) return;
    const address = `${url.pathname}${url.search}`;
    made.set(address, [...(made.get(address) ?? []), request.resourceType()]);
  });
  return made;
}

/** The console's warnings (an unused preload is one). */
function recordWarnings(page: Page): string[] {
  const warnings: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'warning') warnings.push(message.text());
  });
  return warnings;
}

describe("a signed-in page's first screen data", () => {
  it('leaves with the page on /tiktok and /scheduler, and the app takes it without asking again', async () => {
    const page = await openPage();
    await signUp(page);
    const warnings = recordWarnings(page);

    let made = await recordApiRequests(page);
    await page.goto('/tiktok');
    await page.getByRole('heading', { name: 'Automatisation TikTok' }).waitFor();
    await page.getByText('Aucun compte TikTok ajouté').waitFor();
    // 'other': the page's <link rel="preload">; a second entry would be the app's own fetch.
    expect(made.get('/api/me')).toEqual(['other']);
    expect(made.get('/api/accounts')).toEqual(['other']);

    made = await recordApiRequests(page);
    await page.goto('/scheduler');
    await page.getByRole('heading', { name: 'Programmateur de vidéos' }).waitFor();
    await page.getByText('Aucune vidéo programmée').waitFor();
    expect(made.get('/api/me')).toEqual(['other']);
    expect(made.get('/api/accounts')).toEqual(['other']);
    // The list may be asked again later (the live stream's reconnection refetches it), but its
    // first request is the page's.
    expect(made.get('/api/posts/queue?limit=20')?.[0]).toBe('other');

    made = await recordApiRequests(page);
    await page.goto('/scheduler/history');
    await page.getByText("Rien dans l'historique pour l'instant").waitFor();
    expect(made.get('/api/posts/history?limit=20')?.[0]).toBe('other');

    expect(warnings.filter((warning) => /preload/i.test(warning))).toEqual([]);
  });

  it('is what the server holds at each reload, never an answer kept from before', async () => {
    const page = await openPage();
    await signUp(page);
    await page.goto('/tiktok');
    await page.getByText('Aucun compte TikTok ajouté').waitFor();
    const accounts = () => page.getByRole('article');
    for (const [count, username] of [
      [1, 'first_added'],
      [2, 'second_added'],
    ] as const) {
      // Added behind the page's back (another tab, another device): only the server knows.
      const added = await page.request.post('/api/accounts', { data: { username } });
      expect(added.status(), await added.text()).toBe(201);
      const made = await recordApiRequests(page);
      const answer = page.waitForResponse((response) => response.url().endsWith('/api/accounts'));
      await page.goto('/tiktok');
      await page.getByRole('article', { name: `@${username}` }).waitFor();
      await expect(accounts().count()).resolves.toBe(count);
      // From the preload, which no cache may keep (apps/server/src/app.ts), and asked once.
      expect((await answer).headers()['cache-control']).toBe('no-store');
      expect(made.get('/api/accounts')).toEqual(['other']);
    }
    // And a reload of the screen itself.
    const added = await page.request.post('/api/accounts', { data: { username: 'third_added' } });
    expect(added.status()).toBe(201);
    await page.reload();
    await page.getByRole('article', { name: '@third_added' }).waitFor();
    await expect(accounts().count()).resolves.toBe(3);
  });

  it.each([
    ['no session cookie', undefined],
    ['a session cookie the server does not know', 'forged.value'],
  ])('is not named for a visitor with %s, who goes to /auth', async (_, cookie) => {
    // The app's own /api/me answers 401 (signed out): expected, once.
    const page = await openPage({ allowConsoleErrors: [/401/] });
    if (cookie !== undefined) {
      await page
        .context()
        .addCookies([{ name: 'cadence.session_token', value: cookie, url: suite.server().url }]);
    }
    const made = await recordApiRequests(page);
    const response = await page.goto('/scheduler');
    expect(await response?.text()).not.toContain('as="fetch"');
    await page.waitForURL('**/auth');
    expect([...made.values()].flat()).not.toContain('other');
  });
});
