// No screen wider than the phone (issue 15): every route, and the states that hold a creator's
// own text, at 320, 390 and 768 px in French and English, filled with the longest strings a
// creator can type: a 100-character name, a 64-character card username and 2,200-character
// captions without a single space, in the queue, the history, the drafts and the calendar. And
// axe on every signed-in screen so filled, at a phone's width.
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { maxNameLength } from '@cadence/shared/schemas/auth';
import { MAX_TITLE_LENGTH } from '@cadence/shared/schemas/schedule';
import {
  addAccount,
  connectThroughSandbox,
  logInThroughApi,
  longestUsername,
  newUser,
  pickerList,
  showAsLongestUsername,
  signUp,
} from './support/actions.ts';
import { axeViolations } from './support/axe.ts';
import { failNextInit, schedulePosts, uploadVideo } from './support/posts.ts';
import { runAdmin, waitFor } from './support/server.ts';
import { useBrowserSuite } from './support/suite.ts';
import { postableClip, useTempVideos } from './support/videos.ts';

// Without yt-dlp a YouTube analysis fails at once, offline, and stays listed under its link.
const suite = useBrowserSuite({ NODE_ENV: 'test', YTDLP_PATH: '/nonexistent/yt-dlp' });
const clipName = `${'long-file-name-'.repeat(8)}clip.mp4`;
const videos = useTempVideos('cadence-overflow-e2e-', { [clipName]: postableClip });

const widths = [320, 390, 768] as const;
const handle = 'overflow_creator';
const longHandle = `a${'very_long_username_'.repeat(3)}`.slice(0, 64);
const secondHandle = 'zoe_overflow';
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

/**
 * Text that does not fit its own box, though the page does: a label spilling over its neighbour
 * (a tab's 'File d'attente' at 320 px) or a select whose chosen option is cut mid-word. Deliberate
 * truncation (an ellipsis) and scrolling boxes are left out. Returns 'tag "text" +N px' for each.
 */
async function clippedTexts(page: Page): Promise<string[]> {
  return await page.evaluate<string[]>(`(() => {
    const found = [];
    const describe = (element, text, over) =>
      element.tagName.toLowerCase() + ' "' + text.trim().slice(0, 40) + '" +' + Math.ceil(over) + ' px';
    const canvas = document.createElement('canvas').getContext('2d');
    for (const element of document.body.querySelectorAll('*')) {
      if (element.getClientRects().length === 0) continue;
      const style = getComputedStyle(element);
      if (element.tagName === 'SELECT') {
        const option = element.selectedOptions[0];
        if (!option) continue;
        canvas.font = style.font;
        const room = element.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
        const over = canvas.measureText(option.text).width - room;
        if (over > 1) found.push(describe(element, option.text, over));
        continue;
      }
      if (style.display.startsWith('inline') && style.display !== 'inline-block' && style.display !== 'inline-flex') continue;
      if (style.textOverflow === 'ellipsis' || ['auto', 'scroll', 'hidden', 'clip'].includes(style.overflowX)) continue;
      const text = [...element.childNodes]
        .filter((node) => node.nodeType === Node.TEXT_NODE)
        .map((node) => node.textContent)
        .join('');
      if (!text.trim()) continue;
      const over = element.scrollWidth - element.clientWidth;
      if (over > 1) found.push(describe(element, text, over));
    }
    return found;
  })()`);
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
      for (const clipped of await clippedTexts(page)) {
        misfits.push(`${route} @ ${width}: clipped ${clipped}`);
      }
      for (const squeezed of await squeezedTexts(page)) {
        misfits.push(`${route} @ ${width}: squeezed ${squeezed}`);
      }
    }
  }
  return misfits;
}

/**
 * Text squeezed into a column a few words wide, though nothing overflows: a history row's reason
 * wrapped one word per line beside three buttons at 768 px. An element holding 24 characters or
 * more of its own text must be at least 8 of its font's em wide, 4 when it is cut with an ellipsis
 * ('p "Ce compte n'a pas…" 4 px').
 */
async function squeezedTexts(page: Page): Promise<string[]> {
  return await page.evaluate<string[]>(`(() => {
    const found = [];
    for (const element of document.body.querySelectorAll('*')) {
      // Shown text only: a closed disclosure's table is laid out but not drawn.
      if (!element.checkVisibility({ contentVisibilityAuto: true, visibilityProperty: true })) continue;
      const text = [...element.childNodes]
        .filter((node) => node.nodeType === Node.TEXT_NODE)
        .map((node) => node.textContent)
        .join('')
        .trim();
      if (text.length < 24) continue;
      const style = getComputedStyle(element);
      const width = element.getBoundingClientRect().width;
      // A screen reader's text (sr-only) is a 1 px box on purpose.
      if (width <= 1) continue;
      // A line cut with an ellipsis (a calendar chip's title) keeps a few words; text that wraps,
      // a line's worth.
      const ems = style.textOverflow === 'ellipsis' ? 4 : 8;
      if (width < ems * parseFloat(style.fontSize))
        found.push(element.tagName.toLowerCase() + ' "' + text.slice(0, 40) + '" ' + Math.round(width) + ' px');
    }
    return found;
  })()`);
}

/**
 * What of `box` (an element) leaves the window or its own box sideways: the element itself, and
 * each line of each of its texts ('"@name…" +N px'). Empty when every word is on screen.
 */
async function outOfBox(box: Locator): Promise<string[]> {
  const id = await box.getAttribute('id');
  if (id === null) throw new Error('outOfBox needs an element with an id');
  return await box.page().evaluate<string[]>(`((element) => {
    const found = [];
    const edge = element.getBoundingClientRect();
    if (edge.left < 0 || edge.right > window.innerWidth + 0.5)
      found.push('box ' + Math.round(edge.left) + '..' + Math.round(edge.right) + ' px, window ' + window.innerWidth);
    if (element.scrollWidth > element.clientWidth + 1)
      found.push('scrolls sideways +' + (element.scrollWidth - element.clientWidth) + ' px');
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent.trim();
      if (!text) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      for (const line of range.getClientRects()) {
        const over = Math.max(edge.left - line.left, line.right - edge.right);
        if (over > 0.5) found.push('"' + text.slice(0, 30) + '" +' + Math.ceil(over) + ' px');
      }
    }
    return found;
  })(document.getElementById(${JSON.stringify(id)}))`);
}

/** What shows that a signed-in route's own list has come (null: the heading is enough). */
function listShown(route: string): string | null {
  const path = route.split('?')[0];
  if (route.includes('?at=')) return '[role="dialog"]';
  if (path === '/scheduler' || path === '/scheduler/history') return '[data-post-id]';
  if (path?.startsWith('/scheduler/calendar')) return '[data-post-id]';
  if (path === '/scheduler/drafts') return '[data-draft-id]';
  if (path === '/stories') return 'article';
  if (path === '/memes') return '[aria-labelledby="memes-recent-title"] button';
  if (path === '/tiktok') return 'article';
  return null;
}

const signedOut = [
  '/auth',
  '/auth/forgot',
  '/auth/reset?token=AbCdEfGhIjKlMnOpQrStUvWx',
  '/unsubscribe?token=AbCdEfGhIjKlMnOpQrStUvWx',
  '/settings/email?token=AbCdEfGhIjKlMnOpQrStUvWx',
  '/verify-email?token=AbCdEfGhIjKlMnOpQrStUvWx',
];

describe('every screen fits the window, with the longest texts', () => {
  let user: Awaited<ReturnType<typeof signUp>>;
  let signedIn: string[];
  let accountId: string;

  beforeAll(async () => {
    const setup = await suite.openPage({ viewport: { width: 1280, height: 900 } });
    user = await signUp(setup, {
      ...newUser('overflow'),
      name: `Créatrice${'N'.repeat(maxNameLength - 'Créatrice'.length)}`,
    });
    await runAdmin(suite.server(), 'pro', 'grant', user.email);
    await addAccount(setup, handle);
    await connectThroughSandbox(setup, handle, handle);
    await addAccount(setup, longHandle);
    await addAccount(setup, secondHandle);
    await connectThroughSandbox(setup, secondHandle, secondHandle);
    const response = await setup.request.get('/api/accounts');
    const { accounts } = (await response.json()) as {
      accounts: { id: string; username: string }[];
    };
    accountId = accounts.find((account) => account.username === handle)!.id;
    const tomorrow = new Date(Date.now() + 24 * 60 * 60_000).toISOString().slice(0, 10);
    await schedulePosts(
      setup,
      accountId,
      videos.path(clipName),
      [unbroken('Demain'), unbroken('Aussi')],
      {
        publishType: 'scheduled',
        date: tomorrow,
        time: '09:00',
      },
    );
    await schedulePosts(setup, accountId, videos.path(clipName), [unbroken('Publiée')]);
    // A post TikTok refuses for a missing permission: the history's widest row, its long reason
    // beside three actions (reconnect, retry, reschedule).
    await failNextInit(setup, 'scope_not_authorized', 401);
    await schedulePosts(setup, accountId, videos.path(clipName), [unbroken('Refusée')]);
    // Both immediate posts are in the history before the sweep.
    await waitFor(
      async () => {
        const history = await setup.request.get('/api/posts/history');
        return ((await history.json()) as { posts: unknown[] }).posts.length === 2 || undefined;
      },
      { timeoutMs: 30_000, what: 'the immediate posts in the history' },
    );
    // The Pro tools' lists name each entry by what the creator gave: a story by its clips' file
    // names, an analysis by its link (an unbroken 'youtube.com/watch?v=…' before its title).
    const clip = await uploadVideo(setup, videos.path(clipName));
    const stories = await setup.request.post('/api/stories', {
      data: { topMediaIds: [clip], bottomMediaIds: [clip], mixBottomAudio: false },
    });
    expect(stories.status()).toBe(201);
    const [story] = ((await stories.json()) as { stories: { id: string }[] }).stories;
    await setup.request.post(`/api/stories/${story!.id}/cancel`, { data: {} });
    const analysis = await setup.request.post('/api/memes', {
      data: { source: { type: 'youtube', url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' } },
    });
    expect(analysis.status()).toBe(201);
    const draft = await setup.request.post('/api/drafts', {
      data: {
        accountId,
        mediaIds: [clip],
        posts: [{ mediaId: clip, title: unbroken('Brouillon') }],
      },
    });
    expect(draft.status()).toBe(201);
    signedIn = [
      '/tiktok',
      '/scheduler',
      `/scheduler?at=${tomorrow}T18:30`,
      '/scheduler/history',
      '/scheduler/drafts',
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
  }, 120_000);

  // One test per language and side of the sign-in, so each stays well inside its time.
  for (const language of ['fr', 'en'] as const) {
    it(`signed out, at 320, 390 and 768 px (${language})`, async () => {
      const visitor = await suite.openPage();
      await visitor.addInitScript(`localStorage.setItem('cadence.language', '${language}')`);
      expect(await sweep(visitor, signedOut)).toEqual([]);
    });

    it(`signed in, at 320, 390 and 768 px (${language})`, async () => {
      const creator = await suite.openPage();
      await creator.addInitScript(`localStorage.setItem('cadence.language', '${language}')`);
      await logInThroughApi(creator, user);
      expect(await sweep(creator, signedIn)).toEqual([]);
    });
  }
  // Issue 47: 'Analyses récentes' named an entry 'Ouvrir l'analyse <its link>' while it showed
  // the link, its date and its status (axe: label-content-name-mismatch), and no axe check ran on
  // a screen holding such a list. Every signed-in screen, each with its lists filled.
  for (const language of ['fr', 'en'] as const) {
    it(`axe finds nothing on any signed-in screen, its lists filled, at 390 px (${language})`, async () => {
      const creator = await suite.openPage({ viewport: { width: 390, height: 800 } });
      await creator.addInitScript(`localStorage.setItem('cadence.language', '${language}')`);
      await logInThroughApi(creator, user);
      const found: string[] = [];
      for (const route of signedIn) {
        await creator.goto(route);
        await creator.locator('h1').first().waitFor();
        const filled = listShown(route);
        if (filled !== null) await creator.locator(filled).first().waitFor();
        // A form opened by its link: the dialog alone (the page behind its overlay is dimmed).
        const dialog = (await creator.getByRole('dialog').count()) > 0;
        for (const violation of await axeViolations(
          creator,
          dialog ? '[role="dialog"]' : undefined,
        )) {
          found.push(
            `${route}: ${violation.rule} (${violation.impact}) ${violation.targets.join(', ')}`,
          );
        }
      }
      expect(found).toEqual([]);
    });
  }

  // Issue 15: a native select cut '@camille · 0/15 aujourd'hui' mid-word at 320 px, and any long
  // username at every width. The picker wraps both, closed and open.
  for (const language of ['fr', 'en'] as const) {
    it(`the account picker, closed and open, with a 100-character username (${language})`, async () => {
      const creator = await suite.openPage();
      await creator.addInitScript(`localStorage.setItem('cadence.language', '${language}')`);
      await showAsLongestUsername(creator, handle);
      await logInThroughApi(creator, user);
      const misfits: string[] = [];
      for (const width of widths) {
        await creator.setViewportSize({ width, height: 800 });
        await creator.goto(`/scheduler?account=${accountId}`);
        const picker = creator.getByRole('combobox', {
          name: language === 'fr' ? 'Compte TikTok' : 'TikTok account',
          exact: true,
        });
        // The whole name and the day's count, in the closed picker.
        await picker.getByText(`@${longestUsername}`, { exact: true }).waitFor();
        await picker
          .getByText(language === 'fr' ? /^· \d+\/15 aujourd'hui$/ : /^· \d+\/15 today$/)
          .waitFor();
        const where = `@ ${width}`;
        for (const misfit of await outOfBox(picker)) misfits.push(`closed ${where}: ${misfit}`);
        for (const clipped of await clippedTexts(creator)) {
          misfits.push(`closed ${where}: clipped ${clipped}`);
        }

        await picker.click();
        const list = await pickerList(creator.getByRole('combobox', { expanded: true }));
        const options = list.getByRole('option');
        await list
          .getByRole('option', { name: new RegExp(`^@${longestUsername} · \\d+/15 `) })
          .waitFor();
        await expect(options.count()).resolves.toBe(3);
        for (const misfit of await outOfBox(list)) misfits.push(`open ${where}: ${misfit}`);
        for (const clipped of await clippedTexts(creator)) {
          misfits.push(`open ${where}: clipped ${clipped}`);
        }
        await creator.keyboard.press('Escape');
        await options.first().waitFor({ state: 'detached' });
      }
      expect(misfits).toEqual([]);
    });
  }

  it('the account picker from the keyboard: type-ahead, Enter, Escape; axe on the open list', async () => {
    const creator = await suite.openPage({ viewport: { width: 390, height: 800 } });
    await logInThroughApi(creator, user);
    await creator.goto('/scheduler');
    const opener = creator.getByRole('button', { name: 'Nouvelle programmation' }).first();
    await opener.click();
    const dialog = creator.getByRole('dialog', { name: 'Nouvelle programmation' });
    const picker = dialog.getByRole('combobox', { name: 'Compte TikTok', exact: true });
    const pickerId = await picker.getAttribute('id');
    const focusedId = () => creator.locator(':focus').getAttribute('id');
    const expanded = () => picker.getAttribute('aria-expanded');
    // The field as Tab reaches it (after the video field).
    await picker.focus();

    // Down opens the list; typing 'zo' moves to @zoe_overflow; Enter chooses it and closes.
    await creator.keyboard.press('ArrowDown');
    await expect(expanded()).resolves.toBe('true');
    await creator.keyboard.type('zo');
    const active = await picker.getAttribute('aria-activedescendant');
    await expect
      .poll(() => creator.locator(`[id="${active}"]`).textContent())
      .toMatch(new RegExp(`^@${secondHandle} · 0/15 aujourd'hui$`));
    await creator.keyboard.press('Enter');
    await expect(expanded()).resolves.toBe('false');
    await dialog.getByTestId('creator-nickname').getByText(`@${secondHandle}`).waitFor();
    await expect.poll(() => picker.textContent()).toMatch(new RegExp(`@${secondHandle} · `));
    await expect(focusedId()).resolves.toBe(pickerId);

    // Space opens it again, on the chosen account; axe finds nothing in the dialog.
    await creator.keyboard.press(' ');
    await expect(expanded()).resolves.toBe('true');
    const selected = (await pickerList(picker)).getByRole('option', { selected: true });
    await expect.poll(() => selected.textContent()).toMatch(new RegExp(`^@${secondHandle} · `));
    expect(await axeViolations(creator, '[role="dialog"]')).toEqual([]);

    // Escape closes the list only, keeps the choice and the focus; a second Escape closes the
    // dialog and gives the focus back to the button that opened it.
    await creator.keyboard.press('Escape');
    await expect(expanded()).resolves.toBe('false');
    await dialog.waitFor();
    await expect(focusedId()).resolves.toBe(pickerId);
    await expect.poll(() => picker.textContent()).toMatch(new RegExp(`@${secondHandle} · `));
    await creator.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await opener.and(creator.locator(':focus')).waitFor();
  });
});
