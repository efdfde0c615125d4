// No screen wider than the phone (issue 15): every route, and the states that hold a creator's
// own text, at 320, 390 and 768 px in French and English, filled with the longest strings a
// creator can type: a 100-character name, a 64-character card username and 2,200-character
// captions without a single space, in the queue, the history and the calendar.
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempDir, makeVideo } from '../apps/server/src/test-support/media-fixtures.ts';
import { maxNameLength } from '@cadence/shared/schemas/auth';
import { MAX_TITLE_LENGTH } from '@cadence/shared/schemas/schedule';
import { addAccount, connectThroughSandbox, logIn, newUser, signUp } from './support/actions.ts';
import { schedulePosts } from './support/posts.ts';
import { runAdmin } from './support/server.ts';
import { useBrowserSuite } from './support/suite.ts';

const suite = useBrowserSuite({ NODE_ENV: 'test' });
let cleanup: () => Promise<void>;
let clip: string;

beforeAll(async () => {
  const temp = await createTempDir('cadence-overflow-e2e-');
  cleanup = temp.cleanup;
  clip = await makeVideo(path.join(temp.dir, `${'long-file-name-'.repeat(8)}clip.mp4`), {
    width: 360,
    height: 640,
    durationSeconds: 1,
    fps: 30,
    audio: true,
  });
});
afterAll(async () => {
  await cleanup?.();
});

const widths = [320, 390, 768] as const;
const handle = 'overflow_creator';
const longHandle = `a${'very_long_username_'.repeat(3)}`.slice(0, 64);
const unbroken = (start: string) => `${start}${'x'.repeat(MAX_TITLE_LENGTH - start.length)}`;

/**
 * How far the document is wider than the window, in CSS pixels (0 when it fits), once the width
 * has held still over a few frames: lazy screens, thumbnails and fonts settle it after the first
 * paint. (The live event stream keeps a request open, so 'network idle' never comes.)
 */
async function settledOverflow(page: Page): Promise<number> {
  return Number(
    await page.evaluate(`(async () => {
      await document.fonts.ready;
      const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
      const deadline = performance.now() + 5000;
      let last = -1;
      let still = 0;
      while (still < 5 && performance.now() < deadline) {
        await frame();
        const width = document.documentElement.scrollWidth;
        still = width === last ? still + 1 : 0;
        last = width;
      }
      return document.documentElement.scrollWidth - window.innerWidth;
    })()`),
  );
}

/** The element reaching furthest right, to say what a misfit is: tag, classes, first words. */
async function widest(page: Page): Promise<string> {
  return String(
    await page.evaluate(`(() => {
      let found = null;
      let right = 0;
      for (const element of document.body.querySelectorAll('*')) {
        const edge = element.getBoundingClientRect().right;
        if (edge > right) [found, right] = [element, edge];
      }
      if (!found) return 'nothing';
      const text = (found.textContent || '').trim().slice(0, 40);
      return found.tagName.toLowerCase() + '.' + String(found.className).split(' ').join('.') + ' "' + text + '"';
    })()`),
  );
}

/** Opens each route at each width and returns those it does not fit, as 'route @ width: +N px'. */
async function sweep(page: Page, routes: readonly string[]): Promise<string[]> {
  const misfits: string[] = [];
  for (const width of widths) {
    await page.setViewportSize({ width, height: 800 });
    for (const route of routes) {
      await page.goto(route);
      await page.locator('h1').first().waitFor();
      const over = await settledOverflow(page);
      if (over > 0) misfits.push(`${route} @ ${width}: +${over} px (${await widest(page)})`);
    }
  }
  return misfits;
}

describe('every screen fits the window', () => {
  it('at 320, 390 and 768 px, in French and English, with the longest texts', async () => {
    const setup = await suite.openPage({ viewport: { width: 1280, height: 900 } });
    const user = await signUp(setup, {
      ...newUser('overflow'),
      name: `Créatrice${'N'.repeat(maxNameLength - 'Créatrice'.length)}`,
    });
    await runAdmin(suite.server(), 'pro', 'grant', user.email);
    await addAccount(setup, handle);
    await connectThroughSandbox(setup, handle, handle);
    await addAccount(setup, longHandle);
    const response = await setup.request.get('/api/accounts');
    const { accounts } = (await response.json()) as {
      accounts: { id: string; username: string }[];
    };
    const accountId = accounts.find((account) => account.username === handle)!.id;
    const tomorrow = new Date(Date.now() + 24 * 60 * 60_000).toISOString().slice(0, 10);
    await schedulePosts(setup, accountId, clip, [unbroken('Demain'), unbroken('Aussi')], {
      publishType: 'scheduled',
      date: tomorrow,
      time: '09:00',
    });
    await schedulePosts(setup, accountId, clip, [unbroken('Publiée')]);
    await expect
      .poll(
        async () => {
          const history = await setup.request.get('/api/posts/history');
          return ((await history.json()) as { posts: unknown[] }).posts.length;
        },
        { timeout: 30_000 },
      )
      .toBe(1);

    const signedIn = [
      '/tiktok',
      '/scheduler',
      `/scheduler?at=${tomorrow}T18:30`,
      '/scheduler/history',
      `/scheduler/calendar?date=${tomorrow}`,
      `/scheduler/calendar?view=week&date=${tomorrow}`,
      '/stories',
      '/memes',
      '/analytics',
      '/settings',
      '/privacy',
      '/terms',
      '/no-such-page',
    ];
    const signedOut = [
      '/auth',
      '/auth/forgot',
      '/auth/reset?token=AbCdEfGhIjKlMnOpQrStUvWx',
      '/unsubscribe?token=AbCdEfGhIjKlMnOpQrStUvWx',
      '/settings/email?token=AbCdEfGhIjKlMnOpQrStUvWx',
      '/verify-email?token=AbCdEfGhIjKlMnOpQrStUvWx',
    ];

    const misfits: string[] = [];
    for (const language of ['fr', 'en'] as const) {
      const visitor = await suite.openPage();
      await visitor.addInitScript(`localStorage.setItem('cadence.language', '${language}')`);
      misfits.push(...(await sweep(visitor, signedOut)).map((misfit) => `${language} ${misfit}`));

      const creator = await suite.openPage();
      await creator.addInitScript(`localStorage.setItem('cadence.language', '${language}')`);
      await logIn(creator, user);
      misfits.push(...(await sweep(creator, signedIn)).map((misfit) => `${language} ${misfit}`));
    }
    expect(misfits).toEqual([]);
  });
});
