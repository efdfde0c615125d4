import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { addAccount, connectThroughSandbox, signUp } from './support/actions.ts';
import { repoRoot } from './support/server.ts';
import { useBrowserSuite } from './support/suite.ts';

// NODE_ENV=test exposes the sandbox's control endpoint, used to give the creator a TikTok history
// (videos "posted elsewhere", whose counts come from the sandbox's audience model).
const { openPage, server } = useBrowserSuite({ NODE_ENV: 'test' });

const DAY = 86_400_000;
const HOUR = 3_600_000;
const axeSource = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);
const shotsDir = path.join(repoRoot, 'screenshots');

/**
 * A TikTok history: 40 videos 8 to 47 days old at five different hours, 6 from the last week, in
 * whatever time of day the test runs. Days are the local days the browser (and so the person's
 * time zone) uses, which the server's periods count in. The recent six are 24 to 139 hours old
 * (23 hours apart): all at least a day old, all inside the 7-day period even just after midnight
 * (a day apart, the sixth was 6 days and 2 hours old, outside it between 00:00 and 02:00).
 */
async function seedHistory(username: string): Promise<void> {
  const now = Date.now();
  const midnight = new Date(now).setHours(0, 0, 0, 0);
  const hours = [9, 12, 15, 18, 21];
  const videos = [
    ...Array.from({ length: 40 }, (_, index) => ({
      create_time: Math.floor(
        (midnight - (8 + index) * DAY + (hours[index % 5] ?? 12) * HOUR) / 1000,
      ),
      title: `Clip ${index + 1}`,
    })),
    ...Array.from({ length: 6 }, (_, index) => ({
      create_time: Math.floor((now - ((index + 1) * 23 + 1) * HOUR) / 1000),
      title: `Nouveau ${index + 1}`,
    })),
  ];
  const response = await fetch(`${server().url}/sandbox/tiktok/_control/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ action: 'seed_videos', user: { username }, videos }),
  });
  expect(response.status).toBe(200);
}

/** axe-core's violations on the page as it is (the page's CSP does not apply to evaluate()). */
async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  // Strings, not functions: the e2e files are type-checked without the DOM library.
  const found: unknown = await page.evaluate(
    `axe.run(document, { resultTypes: ['violations'] }).then((result) =>
      result.violations.map((v) => v.id + ': ' + v.nodes.map((n) => JSON.stringify(n.target)).join(', ')))`,
  );
  return Array.isArray(found) ? found.map(String) : [String(found)];
}

/**
 * Waits (10 s at most) until the page is no wider than the viewport: after a resize, the charts
 * re-measure on their ResizeObserver's next callback, so one reading can still see the old width.
 */
async function expectNoHorizontalScroll(page: Page): Promise<void> {
  const deadline = Date.now() + 10_000;
  let overflow = Number.POSITIVE_INFINITY;
  while (Date.now() < deadline) {
    overflow = Number(
      await page.evaluate('document.documentElement.scrollWidth - window.innerWidth'),
    );
    if (overflow <= 0) return;
    await page.waitForTimeout(100);
  }
  expect(overflow).toBeLessThanOrEqual(0);
}

async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(shotsDir, { recursive: true });
  await page.screenshot({ path: path.join(shotsDir, `${name}.png`), fullPage: true });
}

describe('analytics', () => {
  it('shows charts, top videos and best times from the synced history, in French then English, at 1280 and 390 px', async () => {
    const page = await openPage();
    await signUp(page);
    await seedHistory('lea_stats');
    await addAccount(page, 'lea_stats');
    // Connecting queues the account's first sync at once.
    await connectThroughSandbox(page, 'lea_stats', 'lea_stats');

    await page
      .getByRole('navigation', { name: 'Navigation principale' })
      .getByRole('link', { name: 'Statistiques' })
      .click();
    await page.waitForURL('**/analytics');
    await page.getByRole('heading', { level: 1, name: 'Statistiques' }).waitFor();
    // The first sync lands within seconds; the page looks again until it has.
    await page.getByText(/Données TikTok du/).waitFor({ timeout: 60_000 });

    // Charts drawn with data: the views chart has the bars of the days videos were posted.
    const views = page.getByTestId('chart-views');
    await views.locator('.recharts-bar-rectangle').first().waitFor();
    await page.getByTestId('chart-followers').locator('.recharts-dot').first().waitFor();
    await expect
      .poll(() => page.getByTestId('total-followers').locator('dd').first().textContent())
      .toMatch(/\d/);
    // 28 days: the 6 videos of the last week and 20 of the older history.
    expect(await page.getByTestId('total-videos').locator('dd').first().textContent()).toBe('26');

    // The numbers behind a chart, as a table, opened from the keyboard.
    await views.getByText('Voir les données en tableau').focus();
    await page.keyboard.press('Enter');
    const table = views.getByRole('table');
    await table.waitFor();
    expect(await table.getByRole('row').count()).toBe(29);
    await expect
      .poll(() => table.getByRole('columnheader').allTextContents())
      .toContain('Vues des vidéos publiées ce jour-là');

    // Top videos with their covers.
    const top = page.getByTestId('top-videos');
    expect(await top.getByRole('listitem').count()).toBe(10);
    await top.locator('img').first().waitFor();
    // The cover really loaded (the sandbox serves it; the page's CSP lets it in).
    await expect
      .poll(async () =>
        Number(
          await page.evaluate(
            `document.querySelector('[data-testid="top-videos"] img').naturalWidth`,
          ),
        ),
      )
      .toBeGreaterThan(0);

    // Best times: the heatmap (7 days × 24 hours) and three slots in words.
    const best = page.getByTestId('best-times');
    await best.getByRole('heading', { name: 'Meilleurs moments pour publier' }).waitFor();
    expect(await best.getByTestId('heatmap').locator('tbody td').count()).toBe(168);
    const slots = best.getByTestId('best-slots').getByRole('listitem');
    expect(await slots.count()).toBe(3);
    expect(await slots.first().textContent()).toMatch(
      /^(lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche) \d{2}:00 : ×\d+,\d les vues habituelles/,
    );

    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'analytics-fr-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    await best.getByTestId('heatmap').waitFor();
    await expectNoHorizontalScroll(page);
    await screenshot(page, 'analytics-fr-390');

    // The period picker: 7 days, in the address too.
    await page.getByText('7 jours', { exact: true }).click();
    await page.waitForURL(/period=7d/);
    await expect.poll(() => table.getByRole('row').count()).toBe(8);
    await expect.poll(() => top.getByRole('listitem').count()).toBe(6);

    // The CSV export of the table, with the session.
    const href = await page
      .getByRole('link', { name: 'Exporter les chiffres par jour (CSV)' })
      .getAttribute('href');
    const csv = await page.request.get(href ?? '');
    expect(csv.headers()['content-type']).toContain('text/csv');
    expect((await csv.text()).split('\r\n')[0]).toMatch(/^date,followers,views,/);

    // English, switched from the header.
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByRole('group', { name: 'Langue' }).getByRole('button', { name: 'en' }).click();
    await page.getByRole('heading', { level: 1, name: 'Analytics' }).waitFor();
    await best.getByRole('heading', { name: 'Best times to post' }).waitFor();
    expect(await slots.first().textContent()).toMatch(
      /^(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday) \d{2}:00: ×\d+\.\d the usual views/,
    );
    expect(await views.getByRole('columnheader').allTextContents()).toContain(
      'Views of the videos posted that day',
    );
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'analytics-en-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoHorizontalScroll(page);
    await screenshot(page, 'analytics-en-390');
  });

  it('says there is nothing yet, and where to start, without a connected account', async () => {
    const page = await openPage({ viewport: { width: 390, height: 844 } });
    await signUp(page);
    await page.goto('/analytics');
    await page.getByRole('heading', { name: 'Pas encore de statistiques' }).waitFor();
    await page.getByRole('link', { name: 'Connecter un compte' }).click();
    await page.waitForURL('**/tiktok');
  });
});
