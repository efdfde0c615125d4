/**
 * Screenshots of every screen at small-phone (320 px), phone (390 px) and desktop (1280 px) widths in both languages,
 * into ./screenshots. Usage: npm run build && npx tsx scripts/screenshots.ts [--widths=768,1280] [route …]
 * The calendar's routes (/scheduler/calendar, …?view=week) are shot with a month of seeded posts,
 * on a second server backed by a PostgreSQL database of their own (e2e/support/calendar-seed.ts).
 * The pseudo-route 'bell' shoots /tiktok with the notification panel open; 'settings-data' shoots
 * /settings with a data archive ready and an email change waiting for its link.
 * REQUIRE_EMAIL_VERIFICATION=true in the environment turns it on for the server (its banner).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { createTempDir, makeVideo } from '../apps/server/src/test-support/media-fixtures.ts';
import {
  addAccount,
  chooseAccount,
  connectThroughSandbox,
  longestUsername,
  mismatchDialog,
  showAsLongestUsername,
  signUp,
} from '../e2e/support/actions.ts';
import { launchBrowser, newContext } from '../e2e/support/browser.ts';
import { localDateOf } from '@cadence/shared/schedule/planner';
import { openSeedDatabase, sampleMonth, seedCalendar } from '../e2e/support/calendar-seed.ts';
import { failNextInit, schedulePosts, uploadVideo } from '../e2e/support/posts.ts';
import { repoRoot, runAdmin, startServer } from '../e2e/support/server.ts';

const outDir = path.join(repoRoot, 'screenshots');
mkdirSync(outDir, { recursive: true });
const args = process.argv.slice(2);
// '--widths=768,1280': those widths instead (768 px: a tablet, the wide calendar's narrowest).
const widthsArg = args.find((arg) => arg.startsWith('--widths='));
const only = args.filter((arg) => !arg.startsWith('--'));
// Screens only a signed-out visitor sees (a reset link's page works either way).
const token = 'AbCdEfGhIjKlMnOpQrStUvWx';
const signedOutRoutes = [
  '/auth',
  '/auth/forgot',
  `/auth/reset?token=${token}`,
  `/unsubscribe?token=${token}`,
  `/settings/email?token=${token}`,
  `/verify-email?token=${token}`,
];
const routes =
  only.length > 0
    ? only
    : [
        ...signedOutRoutes,
        '/tiktok',
        '/scheduler',
        '/scheduler/calendar',
        '/scheduler/calendar?view=week',
        '/scheduler/history',
        '/stories',
        '/memes',
        '/analytics',
        '/settings',
        'bell',
        '/privacy',
        '/terms',
        '/nowhere',
      ];
const widths = widthsArg
  ? widthsArg
      .slice('--widths='.length)
      .split(',')
      .map((width) => Number(width))
  : [320, 390, 1280];
const isCalendar = (route: string) => route.startsWith('/scheduler/calendar');
// '/scheduler/calendar?view=week' → 'scheduler-calendar-week'; '/auth/reset?token=…' → 'auth-reset'
const fileName = (route: string) => {
  const [pathname = '', query = ''] = route.split('?');
  const name = pathname.slice(1).replace(/\//g, '-') || 'root';
  return isCalendar(route)
    ? [name, new URLSearchParams(query).get('view')].filter(Boolean).join('-')
    : name;
};
/** 'composer': the scheduler's slide-over with a connected account and a video (issue 12). */
const composer = only.length === 0 || only.includes('composer');
const composerClip = path.join(outDir, 'composer-clip.mp4');
if (composer) {
  await makeVideo(composerClip, {
    width: 360,
    height: 640,
    durationSeconds: 3,
    fps: 30,
    audio: true,
  });
}

/**
 * Opens the composer on a new video for the connected account `username` (the card of that name
 * is added and connected first) and returns it, with a way to shoot it whole.
 */
async function openComposer(page: Page, language: 'fr' | 'en', width: number, username: string) {
  await page.goto('/tiktok');
  await addAccount(page, username);
  await connectThroughSandbox(page, username, username);
  await page.goto('/scheduler');
  await page
    .getByRole('button', { name: /^(Nouvelle programmation|New schedule)$/ })
    .first()
    .click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel(/Importer des vidéos|Upload videos/).setInputFiles(composerClip);
  await dialog.getByRole('slider').waitFor({ timeout: 30_000 });
  await chooseAccount(
    dialog.getByRole('combobox', { name: /^(Compte TikTok|TikTok account)$/ }),
    username,
  );
  await dialog.getByTestId('creator-nickname').waitFor();
  const shot = async (name: string) => {
    // The slide-over scrolls inside itself: a tall window shows all of it.
    await page.setViewportSize({ width, height: 2600 });
    // Two frames: the resized page is laid out and painted before the capture.
    await page.evaluate(
      'new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))',
    );
    await page.screenshot({ path: path.join(outDir, `${name}-${language}-${width}.png`) });
    await page.setViewportSize({ width, height: 844 });
  };
  return { dialog, shot };
}

/** A second connected account, shown with the longest username in the account pickers. */
async function withLongestUsername(page: Page) {
  await page.goto('/tiktok');
  await addAccount(page, 'picker_second');
  await connectThroughSandbox(page, 'picker_second', 'picker_second');
  await showAsLongestUsername(page, 'picker_second');
}

/**
 * The composer as TikTok's audit sees it: nothing chosen for the creator, a video with its cover
 * scrubber, then the disclosure on with neither box ticked (publishing disabled with TikTok's text),
 * then 'Send to my TikTok inbox' (no privacy asked). Then the warning shown when the creator
 * authorises another TikTok account than the card's.
 */
async function shootComposer(page: Page, language: 'fr' | 'en', width: number) {
  await withLongestUsername(page);
  const { dialog, shot } = await openComposer(page, language, width, 'camille');
  await shot('composer');
  // The account picker (issue 15): open, then closed on the 100-character username.
  const picker = dialog.getByRole('combobox', { name: /^(Compte TikTok|TikTok account)$/ });
  await picker.click();
  await dialog.getByRole('option', { name: new RegExp(`^@${longestUsername}`) }).waitFor();
  await shot('composer-picker-open');
  await chooseAccount(picker, longestUsername);
  await dialog.getByTestId('creator-nickname').getByText('@picker_second').waitFor();
  await shot('composer-picker-long');
  await chooseAccount(picker, 'camille');
  await dialog.getByTestId('creator-nickname').getByText('@camille').waitFor();
  await dialog.getByRole('switch').check();
  await dialog.getByLabel(/^(Contenu de marque|Branded content)/).waitFor();
  await shot('composer-disclosure');
  await dialog.getByRole('switch').uncheck();
  await dialog
    .getByRole('checkbox', { name: /^(Envoyer dans ma boîte TikTok|Send to my TikTok inbox)$/ })
    .check();
  await shot('composer-inbox');

  await page.goto('/tiktok');
  await addAccount(page, 'lea');
  await connectThroughSandbox(page, 'lea', 'lea_pro', 'Authorize', 'mismatch');
  await page.screenshot({ path: path.join(outDir, `account-mismatch-${language}-${width}.png`) });
  await mismatchDialog(page)
    .getByRole('button', { name: /^(Annuler|Cancel)$/ })
    .click();
  // The account list's rewrite ends before the page's context closes.
  await page.unrouteAll({ behavior: 'wait' });
}

/** Runs `shoot` in a fresh page of `url` per language and width, the language already chosen. */
async function inEachLanguageAndWidth(
  url: string,
  shoot: (page: Page, language: 'fr' | 'en', width: number) => Promise<void>,
): Promise<void> {
  for (const language of ['fr', 'en'] as const) {
    for (const width of widths) {
      const { context, page } = await newContext(browser, url, {
        viewport: { width, height: 844 },
        timezoneId: timeZone,
      });
      await page.addInitScript(`localStorage.setItem('cadence.language', '${language}')`);
      await shoot(page, language, width);
      await context.close();
    }
  }
}

/** The composer of an app TikTok has not audited, on a public account: blocked, and why. */
async function shootUnaudited(): Promise<void> {
  const unaudited = await startServer({ TIKTOK_APP_AUDITED: 'false' });
  try {
    await inEachLanguageAndWidth(unaudited.url, async (page, language, width) => {
      await signUp(page);
      const { dialog, shot } = await openComposer(page, language, width, 'camille');
      await dialog.getByTestId('unaudited-notice').waitFor();
      await shot('composer-unaudited');
    });
  } finally {
    await unaudited.stop();
  }
}

// The scheduler's screens are shot with posts in them (queue and history): a connected account,
// published, failed, cancelled and upcoming posts. NODE_ENV=test opens the sandbox's fault control.
const seeded = (route: string) => route.startsWith('/scheduler');
const temp = await createTempDir('cadence-screenshots-');
const clip = await makeVideo(path.join(temp.dir, 'clip.mp4'), {
  width: 360,
  height: 640,
  durationSeconds: 1,
  fps: 30,
  audio: true,
});
const storyClip = await makeVideo(
  path.join(temp.dir, 'Recette-pates-au-citron-version-longue.mp4'),
  { width: 360, height: 640, durationSeconds: 1, fps: 30, audio: true },
);
const timeZone = 'Europe/Paris';

/** 'yyyy-MM-dd' and 'HH:MM' of `at` in Paris. */
function parisParts(at: Date): { date: string; time: string } {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(at);
  const part = (type: string) => parts.find((entry) => entry.type === type)?.value ?? '';
  return {
    date: `${part('year')}-${part('month')}-${part('day')}`,
    time: `${part('hour')}:${part('minute')}`,
  };
}

async function seedStories(page: Page) {
  const top = await uploadVideo(page, storyClip);
  const bottom = await uploadVideo(page, clip);
  const response = await page.request.post('/api/stories', {
    data: { topMediaIds: [top, top], bottomMediaIds: [bottom], mixBottomAudio: false },
  });
  if (!response.ok()) throw new Error(`stories: ${response.status()} ${await response.text()}`);
}

async function seedPosts(page: Page) {
  await addAccount(page, 'maya_creates');
  await connectThroughSandbox(page, 'maya_creates', 'maya_creates');
  const response = await page.request.get('/api/accounts');
  const { accounts } = (await response.json()) as { accounts: { id: string }[] };
  const accountId = accounts[0]!.id;
  const day = 24 * 60 * 60_000;
  const at = (offsetMs: number, time: string) => ({
    publishType: 'scheduled' as const,
    date: parisParts(new Date(Date.now() + offsetMs)).date,
    time,
  });
  await schedulePosts(page, accountId, clip, [
    'Morning routine in 30 seconds ☀️ #routine #morning',
    'Behind the scenes of the shoot — part 2',
  ]);
  await failNextInit(page, 'spam_risk_user_banned_from_posting', 403);
  await schedulePosts(page, accountId, clip, ['Recette express : pâtes au citron 🍋']);
  await failNextInit(page, 'scope_not_authorized', 401);
  await schedulePosts(page, accountId, clip, ['Ma routine du soir, version longue']);
  const soon = parisParts(new Date(Date.now() + 90 * 60_000));
  if (soon.date === parisParts(new Date()).date) {
    await schedulePosts(page, accountId, clip, ['Q&A : vos questions sur le montage'], {
      publishType: 'scheduled',
      ...soon,
    });
  }
  await schedulePosts(
    page,
    accountId,
    clip,
    ['Trois astuces pour filmer de nuit #astuces', 'Unboxing du nouveau micro 🎙️'],
    {
      publishType: 'spaced',
      spacedInterval: {
        count: 1,
        value: 6,
        unit: 'hours',
        startTime: '12:30',
        startDate: parisParts(new Date(Date.now() + day)).date,
        randomizeTime: false,
      },
    },
  );
  await schedulePosts(
    page,
    accountId,
    clip,
    ['Lenouveaumicroestarrivéetilestvraimentincroyablepourlesvlogsenextérieur'],
    at(2 * day, '09:15'),
  );
  await schedulePosts(
    page,
    accountId,
    clip,
    ['Get ready with me: festival edition'],
    at(5 * day, '19:00'),
  );
  await schedulePosts(page, accountId, clip, ['Annulée : test de lumière'], at(3 * day, '08:00'));
  const queue = await page.request.get('/api/posts/queue?limit=50');
  const { posts } = (await queue.json()) as { posts: { id: string; title: string }[] };
  const cancelled = posts.find((post) => post.title.startsWith('Annulée'));
  if (cancelled) await page.request.post(`/api/posts/${cancelled.id}/cancel`, { data: {} });
  // The immediate posts are published (or refused) by the in-process sandbox within seconds.
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const history = await page.request.get('/api/posts/history?limit=50');
    const { posts: past } = (await history.json()) as { posts: unknown[] };
    if (past.length >= 5) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const server = await startServer({
  NODE_ENV: 'test',
  ...(process.env.REQUIRE_EMAIL_VERIFICATION && {
    REQUIRE_EMAIL_VERIFICATION: process.env.REQUIRE_EMAIL_VERIFICATION,
  }),
});
const browser = await launchBrowser();
try {
  for (const language of ['fr', 'en'] as const) {
    for (const width of widths) {
      const { context, page } = await newContext(browser, server.url, {
        viewport: { width, height: 844 },
        timezoneId: timeZone,
      });
      await page.addInitScript(`localStorage.setItem('cadence.language', '${language}')`);
      let currentPassword = '';
      const shoot = async (route: string) => {
        if (route === 'bell') {
          await page.goto('/tiktok');
          await page.getByTestId('notification-bell').click();
          await page.getByTestId('notification-panel').waitFor();
          await page.waitForLoadState('networkidle');
          await page.screenshot({ path: path.join(outDir, `bell-panel-${language}-${width}.png`) });
          return;
        }
        if (route === 'settings-data') {
          await page.goto('/settings');
          const data = page.getByRole('region', {
            name: /Télécharger mes données|Download my data/,
          });
          await data.getByRole('button').click();
          await data.getByRole('link').waitFor({ timeout: 60_000 });
          const profile = page.getByRole('region', { name: /^(Profil|Profile)$/ });
          await profile
            .getByRole('button', { name: /Changer d'adresse email|Change email address/ })
            .click();
          await profile
            .getByLabel(/Nouvelle adresse email|New email address/)
            .fill('new@example.com');
          await profile.getByLabel(/Votre mot de passe|Your password/).fill(currentPassword);
          await profile.getByRole('button', { name: /Envoyer|Send/ }).click();
          await profile.getByText(/new@example.com/).waitFor();
          await page.waitForLoadState('networkidle');
          await page.screenshot({
            path: path.join(outDir, `settings-data-${language}-${width}.png`),
            fullPage: true,
          });
          return;
        }
        // Pro screens show stories: one rendering or done from two named clips, one queued.
        if (route === '/stories' && width !== 390) await seedStories(page);
        await page.goto(route);
        await page.waitForLoadState('networkidle');
        await page.screenshot({
          path: path.join(outDir, `${fileName(route)}-${language}-${width}.png`),
          fullPage: true,
        });
      };
      for (const route of routes.filter((r) => signedOutRoutes.includes(r))) await shoot(route);
      const user = await signUp(page);
      currentPassword = user.password;
      // Pro screens at 320 and 1280 px; the Pro upsell at 390.
      if (width !== 390) {
        await runAdmin(server, 'pro', 'grant', user.email);
      }
      // The calendar is shot apart, over a database seeded with a month of posts.
      const signedIn = routes.filter(
        (r) => !signedOutRoutes.includes(r) && !isCalendar(r) && r !== 'composer',
      );
      for (const route of signedIn.filter((r) => !seeded(r))) await shoot(route);
      if (signedIn.some(seeded)) {
        await page.goto('/tiktok');
        await seedPosts(page);
        for (const route of signedIn.filter(seeded)) await shoot(route);
      }
      if (composer) await shootComposer(page, language, width);
      await context.close();
    }
  }
  const calendarRoutes = routes.filter(isCalendar);
  if (calendarRoutes.length > 0) await shootCalendar(calendarRoutes);
  if (composer) await shootUnaudited();
} finally {
  await browser.close();
  await server.stop();
  await temp.cleanup();
}

async function shootCalendar(calendarRoutes: string[]): Promise<void> {
  const { database, env } = await openSeedDatabase();
  const calendarServer = await startServer(env);
  try {
    await inEachLanguageAndWidth(calendarServer.url, async (page, language, width) => {
      const user = await signUp(page);
      await seedCalendar(
        calendarServer,
        database,
        user.email,
        sampleMonth(localDateOf(new Date(), timeZone), timeZone),
      );
      for (const route of calendarRoutes) {
        await page.goto(route);
        await page.locator('[data-testid="calendar"][data-loaded="true"]').waitFor();
        await page.waitForLoadState('networkidle');
        await page.screenshot({
          path: path.join(outDir, `${fileName(route)}-${language}-${width}.png`),
          fullPage: true,
        });
      }
    });
  } finally {
    await calendarServer.stop();
    await database.close();
  }
}
console.log(`screenshots in ${outDir}`);
