/**
 * Screenshots of every screen at phone (390 px) and desktop (1280 px) widths in both languages,
 * into ./screenshots. Usage: npm run build && npx tsx scripts/screenshots.ts [route …]
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { signUp } from '../e2e/support/actions.ts';
import { launchBrowser, newContext } from '../e2e/support/browser.ts';
import { repoRoot, runAdmin, startServer } from '../e2e/support/server.ts';

const outDir = path.join(repoRoot, 'screenshots');
mkdirSync(outDir, { recursive: true });
const only = process.argv.slice(2);
// Screens only a signed-out visitor sees (a reset link's page works either way).
const signedOutRoutes = ['/auth', '/auth/forgot', '/auth/reset?token=AbCdEfGhIjKlMnOpQrStUvWx'];
const routes =
  only.length > 0
    ? only
    : [
        ...signedOutRoutes,
        '/tiktok',
        '/scheduler',
        '/stories',
        '/memes',
        '/settings',
        '/privacy',
        '/terms',
        '/nowhere',
      ];
const widths = [390, 1280];

const server = await startServer();
const browser = await launchBrowser();
try {
  for (const language of ['fr', 'en'] as const) {
    for (const width of widths) {
      const { context, page } = await newContext(browser, server.url, {
        viewport: { width, height: 844 },
      });
      await page.addInitScript(`localStorage.setItem('cadence.language', '${language}')`);
      const shoot = async (route: string) => {
        await page.goto(route);
        await page.waitForLoadState('networkidle');
        // '/auth/reset?token=…' → 'auth-reset'
        const name = route.split('?')[0]!.slice(1).replace(/\//g, '-') || 'root';
        await page.screenshot({
          path: path.join(outDir, `${name}-${language}-${width}.png`),
          fullPage: true,
        });
      };
      for (const route of routes.filter((r) => signedOutRoutes.includes(r))) await shoot(route);
      const user = await signUp(page);
      if (width === 1280 && language === 'en') {
        await runAdmin(server, 'pro', 'grant', user.email);
      }
      for (const route of routes.filter((r) => !signedOutRoutes.includes(r))) await shoot(route);
      await context.close();
    }
  }
} finally {
  await browser.close();
  await server.stop();
}
console.log(`screenshots in ${outDir}`);
