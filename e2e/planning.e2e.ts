import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  addAccount,
  chooseAccount,
  connectThroughSandbox,
  logIn,
  pick,
  signUp,
  type TestUser,
} from './support/actions.ts';
import { axeViolations } from './support/axe.ts';
import { listPosts, uploadVideo } from './support/posts.ts';
import { repoRoot, runAdmin } from './support/server.ts';
import { useBrowserSuite, type PageOptions } from './support/suite.ts';
import { postableClip, useTempVideos } from './support/videos.ts';

// The schedule form's planning (issue 11, decision 027): the ?at= prefill, best-time suggestions,
// the spaced plan's start date and slot preview against a daily cap of 2, drafts saved, reopened
// and scheduled, and 'Add to queue' with posting slots edited in the form. French at 1280 px then
// 390 px, English at 390 px then 1280 px; the browser is in Paris.
const { openPage, server } = useBrowserSuite({ NODE_ENV: 'test', TIKTOK_DAILY_POST_CAP: '2' });
const DAY = 86_400_000;
const HOUR = 3_600_000;
const timezoneId = 'Europe/Paris';
const tiktokName = 'plan_creator';
const nextYear = new Date().getFullYear() + 1;
const shotsDir = path.join(repoRoot, 'screenshots');

let creator: TestUser;
let accountId: string;

const clip = { ...postableClip, durationSeconds: 2 };
const videos = useTempVideos('cadence-planning-e2e-', {
  'plan-one.mp4': clip,
  'plan-two.mp4': clip,
  'plan-three.mp4': clip,
});

/** A TikTok history (videos at 9, 12, 15, 18 and 21 h) so the account has best times. */
async function seedHistory(username: string): Promise<void> {
  const now = Date.now();
  const midnight = now - (now % DAY);
  const hours = [9, 12, 15, 18, 21];
  const videos = Array.from({ length: 40 }, (_, index) => ({
    create_time: Math.floor(
      (midnight - (8 + index) * DAY + (hours[index % 5] ?? 12) * HOUR) / 1000,
    ),
    title: `Clip ${index + 1}`,
  }));
  const response = await fetch(`${server().url}/sandbox/tiktok/_control/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ action: 'seed_videos', user: { username }, videos }),
  });
  expect(response.status).toBe(200);
}

async function signedIn(options: PageOptions = {}): Promise<Page> {
  const page = await openPage({ timezoneId, ...options });
  if (creator) {
    await logIn(page, creator);
    return page;
  }
  creator = await signUp(page);
  await runAdmin(server(), 'pro', 'grant', creator.email);
  await seedHistory(tiktokName);
  await addAccount(page, tiktokName);
  await connectThroughSandbox(page, tiktokName, tiktokName);
  const response = await page.request.get('/api/accounts');
  const { accounts } = (await response.json()) as { accounts: { id: string }[] };
  accountId = accounts[0]!.id;
  // Connecting queues the first analytics sync; the best times exist once it has landed.
  await expect
    .poll(
      async () => {
        const answer = await page.request.get('/api/analytics/accounts');
        const body = (await answer.json()) as { accounts?: { lastSyncedAt?: string | null }[] };
        return body.accounts?.some((account) => account.lastSyncedAt) ?? false;
      },
      { timeout: 60_000, interval: 250 },
    )
    .toBe(true);
  return page;
}

const form = (page: Page) =>
  page.getByRole('dialog', { name: /^(Nouvelle programmation|New schedule)$/ });

const words = {
  fr: { upload: 'Importer des vidéos', progress: "Progression de l'envoi de", ready: 'Prête' },
  en: { upload: 'Upload videos', progress: 'Upload progress of', ready: 'Ready' },
};

async function upload(page: Page, files: string[], language: 'fr' | 'en') {
  const { upload: label, progress, ready } = words[language];
  await form(page).getByLabel(label).setInputFiles(files);
  for (const file of files) {
    const bar = form(page).getByRole('progressbar', { name: `${progress} ${path.basename(file)}` });
    await bar.waitFor();
    await expect
      .poll(() => bar.getAttribute('aria-valuetext'), { timeout: 30_000, interval: 100 })
      .toBe(ready);
  }
}

async function expectNoHorizontalOverflow(page: Page) {
  const overflow = Number(
    await page.evaluate(
      `Math.max(document.documentElement.scrollWidth, ...Array.from(document.querySelectorAll('[role="dialog"] *')).map((e) => e.scrollWidth > e.clientWidth && getComputedStyle(e).overflowX === 'visible' ? e.getBoundingClientRect().right : 0)) - window.innerWidth`,
    ),
  );
  expect(overflow).toBeLessThanOrEqual(0);
}

async function expectAxeClean(page: Page) {
  expect(await axeViolations(page)).toEqual([]);
}

/** The whole slide-over in one picture: a viewport tall enough for the form's content. */
async function screenshot(page: Page, name: string, width: number) {
  mkdirSync(shotsDir, { recursive: true });
  const height = Number(
    await page.evaluate(
      `Math.max(844, ...Array.from(document.querySelectorAll('[role="dialog"] *')).map((e) => e.scrollHeight + 400))`,
    ),
  );
  await page.setViewportSize({ width, height: Math.min(height, 4000) });
  await page.screenshot({ path: path.join(shotsDir, `${name}.png`) });
  await page.setViewportSize({ width, height: 844 });
}

/** Paris's date and hour of an instant. */
function parisDay(iso: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: timezoneId, dateStyle: 'short' }).format(
    new Date(iso),
  );
}

describe('planning in the schedule form', () => {
  it('opens on ?at=, takes a suggested time, previews a spaced plan over the cap, saves a draft and schedules it (French)', async () => {
    const page = await signedIn();
    await page.goto(`/scheduler?at=${nextYear}-03-14T18:30`);
    const dialog = form(page);
    await dialog.waitFor();
    await page.waitForURL((url) => url.pathname === '/scheduler' && url.search === '');
    await expect(
      dialog.getByRole('radio', { name: 'À une heure précise' }).isChecked(),
    ).resolves.toBe(true);
    await expect(dialog.getByLabel('Date', { exact: true }).inputValue()).resolves.toBe(
      `${nextYear}-03-14`,
    );
    await expect(dialog.getByLabel('Heure', { exact: true }).inputValue()).resolves.toBe('18:30');
    // The zone is named next to the time, and describes the field.
    await dialog.getByText('heure de Paris', { exact: true }).first().waitFor();
    const timeHelp = await dialog
      .getByLabel('Heure', { exact: true })
      .getAttribute('aria-describedby');
    await expect
      .poll(() => page.locator(`[id="${timeHelp}"]`).textContent())
      .toBe('heure de Paris');

    // Each account against the daily cap (2 here), in the account picker.
    await pick(
      dialog.getByRole('combobox', { name: 'Compte TikTok' }),
      `@${tiktokName} · 0/2 aujourd'hui`,
    );
    await dialog.getByTestId('creator-nickname').waitFor();

    // A best time offered under the date and time, and used.
    const suggestion = dialog
      .getByRole('button', { name: /^Suggéré : .* — utiliser ce créneau$/ })
      .first();
    await suggestion.waitFor({ timeout: 30_000 });
    const offered = (await suggestion.textContent()) ?? '';
    expect(offered).toMatch(/^Suggéré : \S+ \d\d:00$/);
    await suggestion.click();
    await expect(dialog.getByLabel('Heure', { exact: true }).inputValue()).resolves.toBe(
      offered.slice(-5),
    );
    expect(await dialog.getByLabel('Date', { exact: true }).inputValue()).not.toBe(
      `${nextYear}-03-14`,
    );

    const clips = videos.paths();
    await upload(page, clips, 'fr');
    await dialog.getByLabel('Qui peut voir cette vidéo').selectOption('SELF_ONLY');
    const captions = ['Plan un', 'Plan deux', 'Plan trois'];
    for (const [index, clip] of clips.entries()) {
      await dialog.getByLabel(`Légende de ${path.basename(clip)}`).fill(captions[index]!);
    }

    // Spaced: a start date beside the start time, and every slot previewed.
    await dialog.getByRole('radio', { name: 'À intervalles' }).check();
    // Today while 09:00 (the default start time) is still ahead in Paris, else tomorrow.
    const firstDay = await page.evaluate(
      `(() => { const now = new Date(); if (now.getHours() * 60 + now.getMinutes() > 540) now.setDate(now.getDate() + 1); return new Intl.DateTimeFormat('en-CA').format(now); })()`,
    );
    await expect(dialog.getByLabel('Date de début').inputValue()).resolves.toBe(firstDay);
    await dialog.getByLabel('Date de début').fill(`${nextYear}-03-14`);
    await dialog.getByLabel('Heure de début').fill('10:00');
    await dialog.getByLabel('Vidéos par intervalle').fill('1');
    await dialog.getByLabel('Toutes les').fill('1');
    await dialog.getByRole('checkbox', { name: 'Randomiser ±1h' }).check();
    const preview = dialog.getByTestId('plan-preview');
    await preview.getByRole('heading', { name: 'Aperçu des créneaux' }).waitFor();
    const rows = preview.getByRole('list').first().getByRole('listitem');
    await expect.poll(() => rows.count()).toBe(3);
    await expect
      .poll(() => rows.allTextContents())
      .toEqual([
        expect.stringMatching(/14 mars.*10:00.*±1 h/),
        expect.stringMatching(/14 mars.*11:00.*±1 h/),
        expect.stringMatching(/14 mars.*12:00.*±1 h.*au-delà de la limite/),
      ]);
    await preview
      .getByText(
        /^1 publication dépasse la limite de 2 publications par jour de TikTok \(.*14 mars\)\.$/,
      )
      .waitFor();
    await preview.getByLabel('Les déplacer au prochain jour avec de la place').check();
    await rows
      .nth(2)
      .getByText(/^déplacée au .*15 mars 12:00$/)
      .waitFor();

    await expectAxeClean(page);
    await screenshot(page, 'planning-form-preview-fr-1280', 1280);
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoHorizontalOverflow(page);
    await screenshot(page, 'planning-form-preview-fr-390', 390);
    await page.setViewportSize({ width: 1280, height: 844 });

    // Saved as a draft: the form starts over, the draft is listed and opens back.
    await page.getByRole('button', { name: 'Enregistrer comme brouillon' }).click();
    await dialog.getByText('Brouillon enregistré : retrouvez-le dans vos brouillons.').waitFor();
    await expect(dialog.getByRole('progressbar').count()).resolves.toBe(0);
    const drafts = dialog.getByTestId('drafts-panel');
    await drafts.getByText('Brouillons (1)').click();
    await drafts.getByText('3 vidéos', { exact: false }).waitFor();
    await expectAxeClean(page);
    await screenshot(page, 'planning-form-drafts-fr-1280', 1280);
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoHorizontalOverflow(page);
    await screenshot(page, 'planning-form-drafts-fr-390', 390);
    await page.setViewportSize({ width: 1280, height: 844 });
    await drafts.getByRole('button', { name: 'Ouvrir le brouillon « Plan un »' }).click();
    await dialog.getByText(/^Brouillon ouvert : donnez-lui une heure pour le programmer/).waitFor();
    for (const [index, caption] of captions.entries()) {
      await expect(
        dialog
          .getByLabel(/^Légende de /)
          .nth(index)
          .inputValue(),
      ).resolves.toBe(caption);
    }
    await expect
      .poll(() => dialog.getByRole('combobox', { name: 'Compte TikTok' }).textContent())
      .toMatch(new RegExp(`@${tiktokName} · 0/2 aujourd'hui$`));
    await expect(dialog.getByLabel('Qui peut voir cette vidéo').inputValue()).resolves.toBe(
      'SELF_ONLY',
    );

    // Given a time, the draft becomes a schedule and leaves the drafts.
    await dialog.getByRole('radio', { name: 'À intervalles' }).check();
    await dialog.getByLabel('Date de début').fill(`${nextYear}-03-14`);
    await dialog.getByLabel('Heure de début').fill('10:00');
    await dialog.getByRole('checkbox', { name: 'Randomiser ±1h' }).check();
    await dialog.getByLabel('Les déplacer au prochain jour avec de la place').check();
    await dialog.getByLabel(/^J'accepte et je confirme/).check();
    await page.getByRole('button', { name: 'Programmer', exact: true }).click();
    await page.getByRole('status').getByText('Vidéos programmées avec succès !').waitFor();
    await dialog.waitFor({ state: 'detached' });
    const left = (await (await page.request.get('/api/drafts')).json()) as { drafts: unknown[] };
    expect(left.drafts).toEqual([]);
    const posts = await listPosts(page);
    const planned = captions.map((caption) => posts.find((post) => post.title === caption));
    // Randomized, the three may swap order within their hours: whichever comes third moves.
    expect(planned.map((post) => post && parisDay(post.dueAt)).sort()).toEqual([
      `${nextYear}-03-14`,
      `${nextYear}-03-14`,
      `${nextYear}-03-15`,
    ]);
    expect(planned.every((post) => post?.randomized)).toBe(true);
    // Reopened, the form lists no drafts any more.
    await page.getByRole('button', { name: 'Nouvelle programmation' }).first().click();
    await dialog.getByRole('radio', { name: 'Immédiatement' }).waitFor();
    await expect(dialog.getByTestId('drafts-panel').count()).resolves.toBe(0);

    // 'Ajouter à la file': the account's weekly slots, edited where the choice is made.
    await chooseAccount(dialog.getByRole('combobox', { name: 'Compte TikTok' }), tiktokName);
    await dialog.getByRole('radio', { name: 'Ajouter à la file' }).check();
    const editor = dialog.getByTestId('slots-editor');
    await editor.getByRole('heading', { name: 'Créneaux de publication' }).waitFor();
    await editor.getByText(/^Aucun créneau pour l'instant/).waitFor();
    await dialog
      .getByTestId('queue-next')
      .getByText(/^Aucun créneau libre/)
      .waitFor();
    await editor.getByRole('button', { name: 'Ajouter le créneau' }).click();
    const chips = editor
      .getByRole('list', { name: 'Créneaux de la semaine' })
      .getByRole('listitem');
    await expect.poll(() => chips.count()).toBe(5);
    await editor.getByRole('button', { name: 'Retirer le créneau lundi 12:00' }).waitFor();
    await editor.getByRole('button', { name: 'Retirer le créneau vendredi 12:00' }).waitFor();
    await dialog.getByTestId('queue-next').getByRole('listitem').first().waitFor();
    await expectAxeClean(page);
    await screenshot(page, 'planning-form-slots-fr-1280', 1280);
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoHorizontalOverflow(page);
    await screenshot(page, 'planning-form-slots-fr-390', 390);
  });

  it('adds a video to the queue in slots edited in the form, with a suggested slot (English, phone then desktop)', async () => {
    const page = await signedIn({ viewport: { width: 390, height: 844 } });
    await page.goto('/scheduler');
    await page.getByRole('button', { name: /Ouvrir le menu/ }).click();
    await page.getByRole('button', { name: 'en', exact: true }).click();
    await page.getByRole('heading', { name: 'Video scheduler' }).waitFor();
    await page.getByRole('button', { name: 'New schedule' }).first().click();
    const dialog = form(page);
    await dialog.waitFor();
    await upload(page, [videos.path('plan-one.mp4')], 'en');
    await pick(
      dialog.getByRole('combobox', { name: 'TikTok account' }),
      `@${tiktokName} · 0/2 today`,
    );
    await dialog.getByTestId('creator-nickname').waitFor();
    await dialog.getByLabel('Who can view this video').selectOption('SELF_ONLY');
    await dialog
      .getByLabel(`Caption for ${path.basename(videos.path('plan-one.mp4'))}`)
      .fill('In the queue');

    // The spaced preview speaks English and names the zone.
    await dialog.getByRole('radio', { name: 'At intervals' }).check();
    await dialog.getByLabel('Start date').fill(`${nextYear}-06-01`);
    await dialog
      .getByTestId('plan-preview')
      .getByRole('heading', { name: 'Slot preview' })
      .waitFor();
    await dialog
      .getByTestId('plan-preview')
      .getByText(/1 post · Paris time/)
      .waitFor();
    await expectAxeClean(page);
    await expectNoHorizontalOverflow(page);
    await screenshot(page, 'planning-form-preview-en-390', 390);
    await page.setViewportSize({ width: 1280, height: 844 });
    await screenshot(page, 'planning-form-preview-en-1280', 1280);
    await page.setViewportSize({ width: 390, height: 844 });

    await dialog.getByRole('radio', { name: 'Add to queue' }).check();
    const editor = dialog.getByTestId('slots-editor');
    await editor.getByRole('heading', { name: 'Posting slots' }).waitFor();
    const chips = editor.getByRole('list', { name: 'Weekly slots' }).getByRole('listitem');
    // The five made in French (Monday to Friday, 12:00).
    await expect.poll(() => chips.count()).toBe(5);
    // Monday to Friday are chosen by default; 18:30 on each.
    for (const day of ['Monday', 'Friday']) {
      await expect(
        editor.getByRole('button', { name: day, exact: true }).getAttribute('aria-pressed'),
      ).resolves.toBe('true');
    }
    await expect(
      editor.getByRole('button', { name: 'Sunday', exact: true }).getAttribute('aria-pressed'),
    ).resolves.toBe('false');
    await editor.getByLabel('Slot time').fill('18:30');
    await editor.getByRole('button', { name: 'Add slot' }).click();
    await expect.poll(() => chips.count()).toBe(10);
    await editor.getByText('Paris time', { exact: true }).waitFor();

    // A best time offered as a slot, and added.
    const suggestion = editor
      .getByRole('button', { name: /^Suggested: .* — use this slot$/ })
      .first();
    await suggestion.waitFor({ timeout: 30_000 });
    const offered = ((await suggestion.textContent()) ?? '').replace(/^Suggested: /, '');
    await suggestion.click();
    await expect.poll(() => chips.count()).toBe(11);
    const [weekday, hour] = offered.split(' ');
    await editor
      .getByRole('button', { name: `Remove the ${weekday} ${hour} slot`, exact: true })
      .waitFor();
    const slots = (await (await page.request.get(`/api/accounts/${accountId}/slots`)).json()) as {
      slots: { weekday: number; time: string }[];
      nextFree: string[];
    };
    expect(slots.slots).toHaveLength(11);
    const nextFree = slots.nextFree[0]!;
    const queueNext = dialog.getByTestId('queue-next');
    await queueNext.getByRole('listitem').first().waitFor();
    await expect(queueNext.getByRole('listitem').count()).resolves.toBe(1);

    await expectAxeClean(page);
    await expectNoHorizontalOverflow(page);
    await screenshot(page, 'planning-form-slots-en-390', 390);
    await page.setViewportSize({ width: 1280, height: 844 });
    await screenshot(page, 'planning-form-slots-en-1280', 1280);

    // Saved as a draft, reopened from the list, then queued: the draft goes.
    await page.getByRole('button', { name: 'Save as draft' }).click();
    await dialog.getByText('Draft saved: find it in your drafts.').waitFor();
    const drafts = dialog.getByTestId('drafts-panel');
    await drafts.getByText('Drafts (1)').click();
    await drafts.getByRole('button', { name: "Open the draft 'In the queue'" }).waitFor();
    await expectAxeClean(page);
    await screenshot(page, 'planning-form-drafts-en-1280', 1280);
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoHorizontalOverflow(page);
    await screenshot(page, 'planning-form-drafts-en-390', 390);
    await drafts.getByRole('button', { name: "Open the draft 'In the queue'" }).click();
    await dialog.getByText(/^Draft opened:/).waitFor();
    await dialog.getByRole('radio', { name: 'Add to queue' }).check();
    await dialog.getByTestId('queue-next').getByRole('listitem').first().waitFor();
    await dialog.getByLabel(/^I agree and confirm/).check();
    await page.getByRole('button', { name: 'Schedule', exact: true }).click();
    await page.getByRole('status').getByText('Videos scheduled successfully!').waitFor();
    await expect
      .poll(async () => {
        const left = (await (await page.request.get('/api/drafts')).json()) as {
          drafts: unknown[];
        };
        return left.drafts.length;
      })
      .toBe(0);
    const posts = await listPosts(page);
    const queued = posts.find((post) => post.title === 'In the queue');
    expect(queued).toMatchObject({ status: 'pending' });
    expect(Date.parse(queued!.dueAt)).toBe(Date.parse(nextFree));
  });

  // The slot preview came in above the consent box once the server answered: the box moved down
  // under a pointer about to tick it. Its room is now taken at once, one row per post. The server's
  // answer is held until the box has been measured, so the check cannot pass by arriving late.
  it('keeps the consent box still when the slot preview answers (French at 390 px, English at 1280 px)', async () => {
    const page = await signedIn({ viewport: { width: 390, height: 844 } });
    const rounds = [
      {
        language: 'fr',
        width: 390,
        account: 'Compte TikTok',
        waiting: 'Calcul des créneaux…',
        suggested: /^Suggéré : /,
        consent: /^J'accepte et je confirme/,
      },
      {
        language: 'en',
        width: 1280,
        account: 'TikTok account',
        waiting: 'Working out the slots…',
        suggested: /^Suggested: /,
        consent: /^I agree and confirm/,
      },
    ] as const;
    for (const round of rounds) {
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/api/schedules/preview', async (route) => {
        await held;
        await route.continue();
      });
      await page.setViewportSize({ width: round.width, height: 844 });
      await page.evaluate(`localStorage.setItem('cadence.language', '${round.language}')`);
      // A set time next year: the preview is asked for once an account is chosen.
      await page.goto(`/scheduler?at=${nextYear}-04-20T10:00`);
      const dialog = form(page);
      await dialog.waitFor();
      const clips = [videos.path('plan-one.mp4'), videos.path('plan-two.mp4')];
      await upload(page, clips, round.language);
      await chooseAccount(dialog.getByRole('combobox', { name: round.account }), tiktokName);
      await dialog.getByRole('status').filter({ hasText: round.waiting }).waitFor();
      // The account's best times come with it too, above the preview: in place before measuring.
      await dialog.getByRole('button', { name: round.suggested }).first().waitFor();
      const consent = dialog.getByLabel(round.consent);
      const top = async () => (await consent.boundingBox())?.y ?? Number.NaN;
      const before = await top();
      release();
      const rows = dialog
        .getByTestId('plan-preview')
        .getByRole('list')
        .first()
        .getByRole('listitem');
      await expect.poll(() => rows.count()).toBe(2);
      expect(await top()).toBe(before);
      await page.unroute('**/api/schedules/preview');
    }
  });

  it('deletes drafts from the drafts panel, the others stay (French at 390 px, then English at 1280 px)', async () => {
    const page = await signedIn({ viewport: { width: 390, height: 844 } });
    const mediaId = await uploadVideo(page, videos.path('plan-two.mp4'));
    for (const title of ['À garder', 'À supprimer']) {
      const saved = await page.request.post('/api/drafts', {
        data: { accountId, mediaIds: [mediaId], posts: [{ mediaId, title }] },
      });
      expect(saved.status()).toBe(201);
    }
    const draftTitles = async () => {
      const { drafts } = (await (await page.request.get('/api/drafts')).json()) as {
        drafts: { videos: { title: string }[] }[];
      };
      return drafts.map((draft) => draft.videos[0]?.title).sort();
    };
    /** The person's language, on the server (applied at sign-in) and in this browser. */
    const speak = async (language: 'fr' | 'en') => {
      await page.request.patch('/api/me', { data: { preferredLanguage: language } });
      await page.evaluate(`localStorage.setItem('cadence.language', '${language}')`);
      await page.goto('/scheduler');
    };

    await speak('fr');
    await page.getByRole('button', { name: 'Nouvelle programmation' }).first().click();
    let dialog = form(page);
    let drafts = dialog.getByTestId('drafts-panel');
    await drafts.getByText('Brouillons (2)').click();
    await drafts.getByRole('button', { name: 'Supprimer le brouillon « À supprimer »' }).click();
    await drafts.getByText('Brouillons (1)').waitFor();
    await expect(
      drafts.getByRole('button', { name: /^Supprimer le brouillon/ }).count(),
    ).resolves.toBe(1);
    await drafts.getByRole('button', { name: 'Ouvrir le brouillon « À garder »' }).waitFor();
    expect(await draftTitles()).toEqual(['À garder']);
    // 'Ajouter à la file' says what happens to full days: it has no over-cap choice.
    await chooseAccount(dialog.getByRole('combobox', { name: 'Compte TikTok' }), tiktokName);
    await dialog.getByRole('radio', { name: 'Ajouter à la file' }).check();
    await dialog
      .getByTestId('queue-cap-note')
      .getByText(/^Les jours où le compte a déjà 2 publications .* sont sautés/)
      .waitFor();
    await expectAxeClean(page);
    await expectNoHorizontalOverflow(page);

    await page.setViewportSize({ width: 1280, height: 844 });
    await speak('en');
    await page.getByRole('button', { name: 'New schedule' }).first().click();
    dialog = form(page);
    drafts = dialog.getByTestId('drafts-panel');
    await drafts.getByText('Drafts (1)').click();
    await drafts.getByRole('button', { name: "Delete the draft 'À garder'" }).click();
    // The last one gone, the panel goes too.
    await drafts.waitFor({ state: 'detached' });
    expect(await draftTitles()).toEqual([]);
    await expectAxeClean(page);
  });
});
