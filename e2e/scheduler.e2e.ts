import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  addAccount,
  chooseAccount,
  connectThroughSandbox,
  holdUploadBytes,
  leavingAsks,
  logInThroughApi,
  pick,
  signUp,
  type TestUser,
} from './support/actions.ts';
import { axeViolations } from './support/axe.ts';
import { failNextInit, listPosts } from './support/posts.ts';
import { useBrowserSuite, type PageOptions } from './support/suite.ts';
import { postableClip, useTempVideos } from './support/videos.ts';

// NODE_ENV=test exposes the sandbox's fault control, used to make TikTok refuse one post. The
// sandbox's moderation gives a public post's id 3 s after PUBLISH_COMPLETE. The file's one account
// makes about seven video inits within a minute: over TikTok's 60 s window the last test's first
// one waited 15-18 s for a slot. Over 10 s (the sandbox's limits and Cadence's pacing alike) no
// screen here waits on it; the pacing itself is init-pacing.db.test.ts's.
const { openPage, server } = useBrowserSuite({
  NODE_ENV: 'test',
  TIKTOK_SANDBOX_POST_ID_DELAY_MS: '3000',
  TIKTOK_SANDBOX_RATE_LIMIT_WINDOW_MS: '10000',
});
// Small real H.264/AAC clips TikTok's limits accept (≥ 360 px, 30 fps).
const clip = { ...postableClip, durationSeconds: 2 };
const videos = useTempVideos('cadence-scheduler-e2e-', {
  'first-clip.mp4': clip,
  'second-clip.mp4': clip,
});
const firstClip = () => videos.path('first-clip.mp4');
const secondClip = () => videos.path('second-clip.mp4');
// Each test starts from a sandbox without pending faults or rate-limit windows: the whole file
// shares one TikTok account, and its creator_info calls (20 a minute, as TikTok allows) would
// otherwise add up across tests that run seconds apart.
beforeEach(async () => {
  const reset = await fetch(`${server().url}/sandbox/tiktok/_control/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ action: 'reset' }),
  });
  expect(reset.status).toBeLessThan(300);
});

// One creator with one connected account for the whole file, signed up through the forms by the
// first test; the others sign in through the API (the forms are foundation.e2e.ts's).
let creator: TestUser;
let accountId: string;
const tiktokName = 'sched_creator';

async function signedIn(options: PageOptions = {}): Promise<Page> {
  const page = await openPage(options);
  if (creator) {
    await logInThroughApi(page, creator);
  } else {
    creator = await signUp(page);
    await addAccount(page, tiktokName);
    await connectThroughSandbox(page, tiktokName, tiktokName);
    const response = await page.request.get('/api/accounts');
    const { accounts } = (await response.json()) as { accounts: { id: string }[] };
    accountId = accounts[0]!.id;
  }
  return page;
}

const form = (page: Page) =>
  page.getByRole('dialog', { name: /^(Nouvelle programmation|New schedule)$/ });
const post = (page: Page, caption: string) =>
  page.getByRole('article', {
    name: new RegExp(`^(Publication de|Post on) @${tiktokName} ?: ${caption}$`),
  });

async function openForm(page: Page) {
  await page.getByRole('button', { name: 'Nouvelle programmation' }).first().click();
  await form(page).waitFor();
}

/** Uploads the files and waits until every progress bar reads 'Prête'. */
async function upload(page: Page, files: string[]) {
  await form(page).getByLabel('Importer des vidéos').setInputFiles(files);
  for (const file of files) {
    const bar = form(page).getByRole('progressbar', {
      name: `Progression de l'envoi de ${path.basename(file)}`,
    });
    await bar.waitFor();
    await page.waitForFunction(
      (element) => element?.getAttribute('aria-valuetext') === 'Prête',
      await bar.elementHandle(),
      { timeout: 30_000 },
    );
  }
}

async function chooseAccountAndPrivacy(page: Page) {
  await chooseAccount(form(page).getByRole('combobox', { name: 'Compte TikTok' }), tiktokName);
  await form(page).getByTestId('creator-nickname').waitFor();
  await form(page).getByLabel('Qui peut voir cette vidéo').selectOption('SELF_ONLY');
}

async function caption(page: Page, file: string, text: string) {
  await form(page)
    .getByLabel(`Légende de ${path.basename(file)}`)
    .fill(text);
}

async function submit(page: Page) {
  await form(page)
    .getByLabel(/^J'accepte et je confirme/)
    .check();
  await page.getByRole('button', { name: 'Programmer', exact: true }).click();
  await page.getByRole('status').getByText('Vidéos programmées avec succès !').waitFor();
  await form(page).waitFor({ state: 'detached' });
}

/** Status badges (the status filter's options carry the same words). */
const badges = (page: Page) => page.locator('[data-status]');

async function status(item: Locator, label: string) {
  await item
    .locator('[data-status]')
    .getByText(label, { exact: true })
    .waitFor({ timeout: 30_000 });
}

describe('scheduler screen', () => {
  it('validates, uploads two videos, publishes them immediately and shows them turn Publiée live', async () => {
    const page = await signedIn();
    await page.goto('/scheduler');
    await page.getByRole('heading', { name: 'Programmateur de vidéos' }).waitFor();
    await page.getByText('Aucune vidéo programmée').waitFor();

    // Escape closes the slide-over; the overlay too.
    await openForm(page);
    await page.keyboard.press('Escape');
    await form(page).waitFor({ state: 'detached' });
    await openForm(page);
    await page.getByTestId('dialog-overlay').click({ position: { x: 10, y: 10 } });
    await form(page).waitFor({ state: 'detached' });

    await openForm(page);
    const dialog = form(page);
    await page.getByRole('button', { name: 'Programmer', exact: true }).click();
    for (const message of [
      'Veuillez sélectionner au moins une vidéo',
      'Veuillez sélectionner un compte TikTok',
      'Vous devez accepter les conditions de TikTok avant de publier',
    ]) {
      await dialog.getByText(message).waitFor();
    }
    await expect(
      dialog
        .getByText(
          /En publiant, vous acceptez la Confirmation d'utilisation de la musique de TikTok/,
        )
        .count(),
    ).resolves.toBe(1);
    await dialog.getByText(/le traitement par TikTok peut prendre quelques minutes/).waitFor();

    await upload(page, videos.paths());
    await dialog
      .getByText('Veuillez sélectionner au moins une vidéo')
      .waitFor({ state: 'detached' });
    await chooseAccount(dialog.getByRole('combobox', { name: 'Compte TikTok' }), tiktokName);
    await dialog.getByTestId('creator-nickname').waitFor();
    await dialog.getByText('Veuillez sélectionner un compte TikTok').waitFor({ state: 'detached' });
    // No privacy default, interactions unchecked, disclosure off.
    await expect(dialog.getByLabel('Qui peut voir cette vidéo').inputValue()).resolves.toBe('');
    await dialog.getByText('Choisissez qui peut voir la vidéo').waitFor();
    for (const name of ['Commenter', 'Duo', 'Collage']) {
      await expect(dialog.getByLabel(name, { exact: true }).isChecked()).resolves.toBe(false);
    }
    await expect(
      dialog.getByRole('switch', { name: 'Divulgation du contenu commercial' }).isChecked(),
    ).resolves.toBe(false);
    await dialog.getByRole('switch', { name: 'Divulgation du contenu commercial' }).check();
    await dialog.getByLabel(/^Contenu de marque/).check();
    await dialog.getByText(/Politique relative au contenu de marque/).waitFor();
    await expect(dialog.locator('option[value="SELF_ONLY"]').isDisabled()).resolves.toBe(true);
    await dialog.getByRole('switch', { name: 'Divulgation du contenu commercial' }).uncheck();
    await dialog.getByLabel('Qui peut voir cette vidéo').selectOption('SELF_ONLY');

    // The three methods and their defaults.
    await expect(dialog.getByRole('radio', { name: 'Immédiatement' }).isChecked()).resolves.toBe(
      true,
    );
    await dialog.getByLabel(/^J'accepte et je confirme/).check();
    await dialog.getByRole('radio', { name: 'À une heure précise' }).check();
    const today = await page.evaluate(() => {
      const now = new Date();
      return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
    });
    await expect(dialog.getByLabel('Date', { exact: true }).inputValue()).resolves.toBe(today);
    await expect(dialog.getByLabel('Heure', { exact: true }).inputValue()).resolves.toBe('12:00');
    // Emptied, date and time are missing; in the past, the server refuses the date.
    await dialog.getByLabel('Date', { exact: true }).fill('');
    await dialog.getByLabel('Heure', { exact: true }).fill('');
    await dialog.getByText('Choisissez une date', { exact: true }).waitFor();
    await dialog.getByText('Choisissez une heure', { exact: true }).waitFor();
    await dialog.getByLabel('Date', { exact: true }).fill('2020-01-15');
    await dialog.getByLabel('Heure', { exact: true }).fill('12:00');
    await dialog.getByText('Choisissez une date', { exact: true }).waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Programmer', exact: true }).click();
    // Said once, under the date field (what the field's aria-describedby names); the banner
    // points to the form instead of repeating it.
    const pastDate = 'Cette date est déjà passée : choisissez un moment à venir';
    await dialog
      .getByRole('alert')
      .getByText('Corrigez ce qui est signalé dans le formulaire.', { exact: true })
      .waitFor();
    const dateHelp = await dialog
      .getByLabel('Date', { exact: true })
      .getAttribute('aria-describedby');
    await expect.poll(() => page.locator(`[id="${dateHelp}"]`).textContent()).toBe(pastDate);
    // The keyboard is taken to the field to fix, as for the form's own checks.
    await expect
      .poll(() =>
        dialog.getByLabel('Date', { exact: true }).evaluate((field) => field.matches(':focus')),
      )
      .toBe(true);
    // Once in the whole dialog (a failure names where each copy sits).
    await expect(
      dialog
        .getByText(pastDate, { exact: true })
        .evaluateAll((copies) => copies.map((copy) => copy.parentElement?.outerHTML.slice(0, 300))),
    ).resolves.toHaveLength(1);
    await dialog.getByRole('radio', { name: 'À intervalles' }).check();
    await expect(dialog.getByLabel('Vidéos par intervalle').inputValue()).resolves.toBe('1');
    await expect(dialog.getByLabel('Toutes les').inputValue()).resolves.toBe('1');
    await expect(dialog.getByLabel('Unité').inputValue()).resolves.toBe('hours');
    await expect(dialog.getByLabel('Heure de début').inputValue()).resolves.toBe('09:00');
    // Never more per interval than the two videos selected; emptied fields are reported.
    await dialog.getByLabel('Vidéos par intervalle').fill('5');
    await expect(dialog.getByLabel('Vidéos par intervalle').inputValue()).resolves.toBe('2');
    await dialog.getByLabel('Vidéos par intervalle').fill('');
    await dialog.getByLabel('Toutes les').fill('');
    await dialog
      .getByText(
        'Le nombre de vidéos par intervalle doit être compris entre 1 et le nombre de vidéos sélectionnées',
        { exact: true },
      )
      .waitFor();
    await dialog
      .getByText("L'intervalle doit être un nombre entier d'au moins 1", { exact: true })
      .waitFor();
    await dialog.getByLabel('Vidéos par intervalle').fill('1');
    await dialog.getByLabel('Toutes les').fill('1');
    await expect(
      dialog.getByRole('checkbox', { name: 'Randomiser ±1h' }).isDisabled(),
    ).resolves.toBe(true);
    await dialog.getByText(/Réservé aux utilisateurs Pro/).waitFor();
    await dialog.getByRole('radio', { name: 'Immédiatement' }).check();
    await expect(dialog.getByLabel('Date', { exact: true }).count()).resolves.toBe(0);

    await caption(page, firstClip(), 'Premier essai #cadence');
    await dialog.getByText('22 / 2200').waitFor();
    await caption(page, secondClip(), 'Deuxième essai');
    await submit(page);

    const first = post(page, 'Premier essai #cadence');
    const second = post(page, 'Deuxième essai');
    // The in-process sandbox publishes within seconds; the screen follows without a reload: the
    // posts leave the queue, and the history (a tab, no reload) has them published.
    await first.waitFor({ state: 'detached', timeout: 30_000 });
    await second.waitFor({ state: 'detached', timeout: 30_000 });
    // The notice says where they went (the queue just emptied), and leads there.
    await page
      .getByRole('status')
      .getByRole('link', { name: "Elles partent maintenant : suivez-les dans l'historique." })
      .click();
    await page.waitForURL('**/scheduler/history');
    await status(first, 'Publiée');
    await status(second, 'Publiée');
    // A link to the post when TikTok gives a public id (private 'Moi uniquement' posts have none).
    const posts = await listPosts(page);
    const published = posts.find((candidate) => candidate.title === 'Premier essai #cadence');
    await expect(first.getByRole('link', { name: 'Voir sur TikTok' }).count()).resolves.toBe(
      published?.tiktokPostUrl ? 1 : 0,
    );

    // Spec §4: the form starts over (videos cleared, immediate).
    await openForm(page);
    await expect(form(page).getByRole('progressbar').count()).resolves.toBe(0);
    await expect(
      form(page).getByRole('radio', { name: 'Immédiatement' }).isChecked(),
    ).resolves.toBe(true);
    await page.keyboard.press('Escape');
  });

  it('opens on ?account=, keeps a future post En attente, reschedules and cancels it', async () => {
    const page = await signedIn();
    await page.goto(`/scheduler?account=${accountId}`);
    await form(page).waitFor();
    // Preselected as soon as the accounts are known, and TikTok's creator info follows.
    await form(page).getByTestId('creator-nickname').waitFor();
    await expect
      .poll(() => form(page).getByRole('combobox', { name: 'Compte TikTok' }).textContent())
      .toMatch(new RegExp(`@${tiktokName}( ·|$)`));
    await page.waitForURL((url) => url.pathname === '/scheduler' && url.search === '');

    await upload(page, [firstClip()]);
    await form(page).getByLabel('Qui peut voir cette vidéo').selectOption('SELF_ONLY');
    await caption(page, firstClip(), 'Pour plus tard');
    await form(page).getByRole('radio', { name: 'À une heure précise' }).check();
    const nextYear = new Date().getFullYear() + 1;
    await form(page).getByLabel('Date', { exact: true }).fill(`${nextYear}-03-14`);
    await form(page).getByLabel('Heure', { exact: true }).fill('18:30');
    await submit(page);

    const later = post(page, 'Pour plus tard');
    await status(later, 'En attente');
    await later.locator('time').getByText('18:30').waitFor();
    // A day of another year says its year.
    await page.getByRole('heading', { name: new RegExp(`14 mars ${nextYear}`) }).waitFor();

    await later.getByRole('button', { name: /^Modifier la publication/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Modifier la publication' });
    await expect(dialog.getByLabel('Date').inputValue()).resolves.toBe(`${nextYear}-03-14`);
    await expect(dialog.getByLabel('Heure').inputValue()).resolves.toBe('18:30');
    await dialog.getByLabel('Date').fill(`${nextYear}-04-02`);
    await dialog.getByRole('button', { name: 'Enregistrer', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('Publication modifiée.').waitFor();
    await page.getByRole('heading', { name: new RegExp(`2 avril ${nextYear}`) }).waitFor();
    const dueAt = await later.locator('time').getAttribute('datetime');
    const local = await page.evaluate((iso) => {
      const due = new Date(iso ?? '');
      return [
        due.getFullYear(),
        due.getMonth() + 1,
        due.getDate(),
        due.getHours(),
        due.getMinutes(),
      ];
    }, dueAt);
    expect(local).toEqual([nextYear, 4, 2, 18, 30]);

    // Cancelling asks first; the post then leaves the queue for the history, where it can be
    // restored (its time is ahead) or given another time.
    await later.getByRole('button', { name: /^Annuler la publication/ }).click();
    const confirm = page.getByRole('dialog', { name: 'Annuler cette publication ?' });
    await confirm.getByRole('button', { name: 'Annuler la publication' }).click();
    await later.waitFor({ state: 'detached' });
    await page.getByRole('link', { name: 'Historique', exact: true }).click();
    await status(later, 'Annulée');
    await later.getByRole('button', { name: /^Restaurer la publication/ }).waitFor();
    await later.getByRole('button', { name: /^Reprogrammer la publication/ }).waitFor();
  });

  it('spaces two videos one per hour: two due times exactly an hour apart', async () => {
    const page = await signedIn();
    await page.goto('/scheduler');
    await openForm(page);
    await upload(page, videos.paths());
    await chooseAccountAndPrivacy(page);
    await caption(page, firstClip(), 'Espacée un');
    await caption(page, secondClip(), 'Espacée deux');
    await form(page).getByRole('radio', { name: 'À intervalles' }).check();
    await form(page).getByLabel('Vidéos par intervalle').fill('5');
    await expect(form(page).getByLabel('Vidéos par intervalle').inputValue()).resolves.toBe('2');
    // Removing a video brings the count down to what is left… then back to the two videos.
    await form(page)
      .getByRole('button', { name: `Retirer ${path.basename(secondClip())}` })
      .click();
    await expect(form(page).getByLabel('Vidéos par intervalle').inputValue()).resolves.toBe('1');
    await upload(page, [secondClip()]);
    await caption(page, secondClip(), 'Espacée deux');
    await form(page).getByLabel('Vidéos par intervalle').fill('1');
    await form(page).getByLabel('Toutes les').fill('1');
    await form(page).getByLabel('Unité').selectOption('hours');
    await submit(page);

    const one = post(page, 'Espacée un');
    const two = post(page, 'Espacée deux');
    await status(one, 'En attente');
    await status(two, 'En attente');
    const [a, b] = await Promise.all([
      one.locator('time').getAttribute('datetime'),
      two.locator('time').getAttribute('datetime'),
    ]);
    expect(Date.parse(b ?? '') - Date.parse(a ?? '')).toBe(60 * 60 * 1000);
    const start = await page.evaluate((iso) => {
      const due = new Date(iso ?? '');
      return [due.getHours(), due.getMinutes()];
    }, a);
    expect(start).toEqual([9, 0]);
  });

  it('shows TikTok refusing a post as Échec with the reason, then retries it to Publiée', async () => {
    const page = await signedIn();
    // (spam_risk_too_many_posts is postponed to the next day instead of failing.)
    await failNextInit(page, 'spam_risk_user_banned_from_posting', 403);
    await page.goto('/scheduler');
    await openForm(page);
    await upload(page, [firstClip()]);
    await chooseAccountAndPrivacy(page);
    await caption(page, firstClip(), 'Refusée une fois');
    await submit(page);

    const refused = post(page, 'Refusée une fois');
    await refused.waitFor({ state: 'detached', timeout: 30_000 });
    await page.getByRole('link', { name: 'Historique', exact: true }).click();
    await status(refused, 'Échec');
    await expect
      .poll(() => refused.getByTestId('fail-reason').textContent())
      .toBe(
        "TikTok a suspendu la publication pour ce compte. Consultez les notifications du compte dans l'app TikTok : réessayer ne servira à rien avant que TikTok lève la suspension.",
      );
    await refused.getByRole('button', { name: /^Réessayer la publication/ }).click();
    // Retried, it is published again: back in the history as Publiée.
    await status(refused, 'Publiée');

    // The bell's 'published' notice leads to the post it names (it had no link).
    const id = await refused.getAttribute('data-post-id');
    await page.goto('/scheduler');
    await page.getByTestId('notification-bell').click();
    const notice = page
      .getByTestId('notification-item')
      .filter({ hasText: /La vidéo « Refusée une fois » est publiée sur @/ });
    await notice.getByRole('link', { name: 'Ouvrir' }).click();
    await page.waitForURL((url) => url.pathname === '/scheduler/history');
    // Shown and focused, though the page was already up (it read its link only once).
    const focusedPost = `document.activeElement?.closest('[data-post-id]')?.getAttribute('data-post-id') ?? null`;
    await expect.poll(() => page.evaluate<string | null>(focusedPost)).toBe(id);
  });

  // Issue 12: what TikTok's app audit checks in a composer (Content Sharing Guidelines), recorded
  // in English, then the same in French.
  it("follows TikTok's Content Sharing Guidelines in English, then in French", async () => {
    const page = await signedIn();
    // Saved preferences must not show up by themselves.
    const saved = await page.request.patch(`/api/accounts/${accountId}/settings`, {
      data: {
        defaultPrivacyLevel: 'SELF_ONLY',
        allowComment: true,
        allowDuet: false,
        allowStitch: false,
      },
    });
    expect(saved.status()).toBe(200);
    await page.goto('/scheduler');
    await page.getByRole('button', { name: 'EN' }).first().click();
    await page.getByRole('heading', { name: 'Video scheduler' }).waitFor();
    await page.getByRole('button', { name: 'New schedule' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New schedule' });
    await chooseAccount(dialog.getByRole('combobox', { name: 'TikTok account' }), tiktokName);
    await dialog.getByTestId('creator-nickname').waitFor();
    const privacy = dialog.getByLabel('Who can view this video');
    const publish = page.getByRole('button', { name: 'Schedule', exact: true });
    await expect(privacy.inputValue()).resolves.toBe('');
    await expect(dialog.getByLabel('Comment', { exact: true }).isChecked()).resolves.toBe(false);
    await dialog.getByRole('button', { name: 'Use my usual settings' }).click();
    await expect(privacy.inputValue()).resolves.toBe('SELF_ONLY');
    await expect(dialog.getByLabel('Comment', { exact: true }).isChecked()).resolves.toBe(true);

    // Disclosure on, nothing ticked: publishing disabled, TikTok's text beside it and on hover.
    const disclosure = dialog.getByRole('switch', { name: 'Disclose commercial content' });
    await expect(disclosure.isChecked()).resolves.toBe(false);
    await disclosure.check();
    const indicate =
      'You need to indicate if your content promotes yourself, a third party, or both.';
    await page.getByText(indicate, { exact: true }).waitFor();
    await expect(publish.isDisabled()).resolves.toBe(true);
    await expect(publish.getAttribute('title')).resolves.toBe(indicate);
    // Branded content while 'Only me' is chosen: refused with TikTok's text, privacy untouched.
    const privateText = 'Branded content visibility cannot be set to private.';
    await dialog.getByLabel(/^Branded content/).click();
    await dialog.getByText(privateText, { exact: true }).waitFor();
    await expect(dialog.getByLabel(/^Branded content/).isChecked()).resolves.toBe(false);
    await expect(privacy.inputValue()).resolves.toBe('SELF_ONLY');
    await privacy.selectOption({ label: 'Everyone' });
    await dialog.getByLabel(/^Branded content/).check();
    await expect(publish.isDisabled()).resolves.toBe(false);
    // 'Only me' is now disabled, with the same text under the choice.
    await expect(dialog.locator('option[value="SELF_ONLY"]').isDisabled()).resolves.toBe(true);
    await dialog.getByText(privateText, { exact: true }).waitFor();
    await dialog.getByText('Your video will be labeled as “Paid partnership”.').waitFor();
    await dialog
      .getByText(
        "By posting, you agree to TikTok's Branded Content Policy and Music Usage Confirmation",
        { exact: true },
      )
      .waitFor();
    await dialog.getByLabel(/^Branded content/).uncheck();
    await dialog.getByLabel(/^Your brand/).check();
    await dialog.getByText('Your video will be labeled as “Promotional content”.').waitFor();
    await dialog
      .getByText("By posting, you agree to TikTok's Music Usage Confirmation", { exact: true })
      .waitFor();
    await dialog.getByLabel('AI-generated content').check();
    await expect(axeViolations(page, '[role="dialog"]')).resolves.toEqual([]);

    // French: the same rules, translated; then a post with a chosen cover goes out.
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'FR' }).first().click();
    await page.getByRole('heading', { name: 'Programmateur de vidéos' }).waitFor();
    await openForm(page);
    const form_ = form(page);
    // The form may reopen as it was left (the usual settings ticked 'Comment'): the account
    // chosen anew, after 'Choisir un compte…', starts from nothing chosen.
    await pick(form_.getByRole('combobox', { name: 'Compte TikTok' }), 'Choisir un compte…');
    await chooseAccountAndPrivacy(page);
    await expect(form_.getByLabel('Commenter', { exact: true }).isChecked()).resolves.toBe(false);
    await form_.getByRole('switch', { name: 'Divulgation du contenu commercial' }).check();
    await form_.getByLabel(/^Votre marque/).uncheck();
    await form_.getByRole('button', { name: 'Utiliser mes réglages habituels' }).waitFor();
    await page
      .getByText(
        'Vous devez indiquer si votre contenu fait votre propre promotion, celle d’un tiers, ou les deux.',
        { exact: true },
      )
      .waitFor();
    await expect(
      page.getByRole('button', { name: 'Programmer', exact: true }).isDisabled(),
    ).resolves.toBe(true);
    await form_.getByLabel(/^Contenu de marque/).click();
    await form_
      .getByText('La visibilité d’un contenu de marque ne peut pas être définie sur privé.', {
        exact: true,
      })
      .waitFor();
    await form_.getByRole('switch', { name: 'Divulgation du contenu commercial' }).uncheck();
    await form_.getByLabel('Contenu généré par IA').check();

    await upload(page, [firstClip()]);
    const scrubber = form_.getByRole('slider', { name: 'Image de couverture de first-clip.mp4' });
    await scrubber.focus();
    for (let step = 0; step < 12; step++) await page.keyboard.press('ArrowRight');
    await expect(scrubber.getAttribute('aria-valuetext')).resolves.toBe('Image à 1,2 s');
    // The live preview is the video itself, paused on the chosen frame.
    const preview = form_.getByLabel('Aperçu de la couverture de first-clip.mp4');
    await expect
      .poll(
        () =>
          preview.evaluate((video) => (video as unknown as { currentTime: number }).currentTime),
        { timeout: 10_000 },
      )
      .toBeCloseTo(1.2, 1);
    // The list shows a poster frame with its duration and a play button, never the browser's
    // tiny controls; the button plays the video where it is, and pauses it.
    const card = form_.getByRole('listitem').filter({ hasText: 'first-clip.mp4' });
    await card.getByText('0:02', { exact: true }).waitFor();
    await expect(form_.locator('video[controls]').count()).resolves.toBe(0);
    await card.getByRole('button', { name: "Lire l'aperçu de first-clip.mp4" }).click();
    await card.getByRole('button', { name: "Mettre en pause l'aperçu de first-clip.mp4" }).click();
    await card.getByRole('button', { name: "Lire l'aperçu de first-clip.mp4" }).waitFor();
    // A refused file says why, with nothing to fill in: no caption box, no cover.
    await form_.getByLabel('Importer des vidéos').setInputFiles({
      name: 'notes.mp4',
      mimeType: 'video/mp4',
      buffer: Buffer.from('not a video at all, just words'.repeat(40)),
    });
    const refusedCard = form_.getByRole('listitem').filter({ hasText: 'notes.mp4' });
    await refusedCard
      .getByText("Ce fichier n'est pas une vidéo lisible.")
      .waitFor({ timeout: 30_000 });
    // Refused, and what to do; not an upload that failed (every byte arrived).
    await refusedCard.getByText('Exportez la vidéo de nouveau en MP4 (H.264)').waitFor();
    await refusedCard.getByText('Vidéo refusée').waitFor();
    await expect(refusedCard.getByText("Échec de l'envoi").count()).resolves.toBe(0);
    // The count says it will not be posted.
    await form_.getByText('2 vidéos · 1 refusée').waitFor();
    await expect(refusedCard.getByRole('textbox').count()).resolves.toBe(0);
    await expect(refusedCard.getByRole('slider').count()).resolves.toBe(0);
    await expect(axeViolations(page, '[role="dialog"]')).resolves.toEqual([]);
    await refusedCard.getByRole('button', { name: 'Retirer notes.mp4' }).click();
    await refusedCard.waitFor({ state: 'detached' });
    await form_.getByText('1 vidéo', { exact: true }).waitFor();
    await caption(page, firstClip(), 'Couverture choisie');
    await submit(page);
    // Published, it leaves the queue for the history.
    await post(page, 'Couverture choisie').waitFor({ state: 'detached', timeout: 30_000 });
    await page.getByRole('link', { name: 'Historique', exact: true }).click();
    await status(post(page, 'Couverture choisie'), 'Publiée');
    const ledger = await page.request.get('/sandbox/tiktok/_ledger');
    const { posts } = (await ledger.json()) as {
      posts: { post_info: Record<string, unknown> | null }[];
    };
    expect(
      posts.find((candidate) => candidate.post_info?.['title'] === 'Couverture choisie')?.post_info,
    ).toMatchObject({ privacy_level: 'SELF_ONLY', is_aigc: true, video_cover_timestamp_ms: 1200 });
  });

  it('speaks English after the switch, on a phone', async () => {
    const page = await signedIn({ viewport: { width: 390, height: 844 } });
    await page.goto('/scheduler');
    await page.getByRole('button', { name: /Ouvrir le menu/ }).click();
    await page.getByRole('button', { name: 'en', exact: true }).click();
    await page.getByRole('heading', { name: 'Video scheduler' }).waitFor();
    await badges(page).getByText('Pending', { exact: true }).first().waitFor();
    await page.getByRole('link', { name: 'History', exact: true }).click();
    await badges(page).getByText('Published', { exact: true }).first().waitFor();
    await badges(page).getByText('Cancelled', { exact: true }).first().waitFor();
    await page.getByRole('button', { name: 'New schedule' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New schedule' });
    await dialog.waitFor();
    for (const name of ['Immediately', 'At a specific time', 'At intervals']) {
      await dialog.getByRole('radio', { name }).waitFor();
    }
    await dialog.getByText(/By posting, you agree to TikTok's Music Usage Confirmation/).waitFor();
    await page.getByRole('button', { name: 'Schedule', exact: true }).click();
    await dialog.getByText('Please select at least one video').waitFor();
    await dialog.getByText('Please select a TikTok account').waitFor();
    // The dialog fits the phone's width.
    const box = await dialog.boundingBox();
    expect(box?.width).toBeLessThanOrEqual(390);
  });

  it('links a public post to its sandbox page once moderation gives its id, and sends a draft to the inbox', async () => {
    const page = await signedIn();
    await page.goto('/scheduler');
    // The previous test chose English for the account; a page signed in through the API starts in
    // the device's language (none stored: French) until a choice: French, for the account too.
    const languages = page.getByRole('group', { name: /^(Langue|Language)$/ });
    await languages.getByRole('button', { name: 'fr' }).click();
    await page.getByRole('heading', { name: 'Programmateur de vidéos' }).waitFor();
    await openForm(page);
    await upload(page, [firstClip()]);
    await chooseAccountAndPrivacy(page);
    await form(page).getByLabel('Qui peut voir cette vidéo').selectOption('PUBLIC_TO_EVERYONE');
    await caption(page, firstClip(), 'Publique tardive');
    await submit(page);
    const published = post(page, 'Publique tardive');
    // Published, it leaves the queue for the history.
    await published.waitFor({ state: 'detached', timeout: 30_000 });
    await page.getByRole('link', { name: 'Historique', exact: true }).click();
    await page.waitForURL('**/scheduler/history');
    await status(published, 'Publiée');
    // Published before TikTok's moderation lets the id out; the link follows live (SSE).
    const link = published.getByRole('link', { name: 'Voir sur TikTok' });
    // Against TikTok, Cadence first asks for the id a minute after publishing; against its own
    // sandbox, a second after the sandbox's moderation delay (3 s here).
    await link.waitFor({ timeout: 30_000 });
    const href = (await link.getAttribute('href')) ?? '';
    expect(href).toMatch(
      new RegExp(`^${server().url}/sandbox/tiktok/@${tiktokName}/video/\\d{19}$`),
    );
    const videoPage = await page.request.get(href);
    expect(videoPage.status()).toBe(200);
    await expect(videoPage.text()).resolves.toContain('Publique tardive');

    await openForm(page);
    await upload(page, [secondClip()]);
    await chooseAccountAndPrivacy(page);
    await form(page).getByRole('checkbox', { name: 'Envoyer dans ma boîte TikTok' }).check();
    await form(page)
      .getByText(/La vidéo arrive en brouillon dans votre boîte de réception TikTok/)
      .waitFor();
    // The creator sets privacy and interactions in the TikTok app: the form does not ask.
    await expect(form(page).getByLabel('Qui peut voir cette vidéo').count()).resolves.toBe(0);
    await expect(
      form(page).getByRole('checkbox', { name: 'Autoriser les commentaires' }).count(),
    ).resolves.toBe(0);
    // Nor the labels, which TikTok's inbox init does not take either.
    await expect(
      form(page).getByRole('switch', { name: 'Divulgation du contenu commercial' }).count(),
    ).resolves.toBe(0);
    await expect(
      form(page)
        .getByRole('checkbox', { name: /^Contenu généré par IA/ })
        .count(),
    ).resolves.toBe(0);
    await caption(page, secondClip(), 'Brouillon boîte');
    await submit(page);
    const draft = post(page, 'Brouillon boîte');
    // The form was opened from the history: the new post shows there once sent to the inbox,
    // with its own status (not 'Publiée': nobody sees it until the creator finishes it).
    await status(draft, 'Dans votre boîte TikTok');
    await draft
      .getByText("Envoyée dans votre boîte TikTok : terminez-la dans l'app TikTok.")
      .waitFor({ timeout: 30_000 });
    await expect(draft.getByRole('link', { name: 'Voir sur TikTok' }).count()).resolves.toBe(0);
    await expect(draft.locator('[data-status]').getAttribute('data-status')).resolves.toBe('inbox');
    // And the bell says so.
    await page
      .getByRole('button', { name: /^Notifications/ })
      .first()
      .click();
    await page
      .getByTestId('notification-item')
      // It says which video: the caption the form was given.
      .filter({ hasText: 'La vidéo « Brouillon boîte » est dans votre boîte TikTok' })
      .first()
      .waitFor({ timeout: 30_000 });
    await page.keyboard.press('Escape');

    // The same in English.
    await languages.getByRole('button', { name: 'en' }).click();
    await page.getByRole('heading', { name: 'Video scheduler' }).waitFor();
    await page.getByText('Sent to your TikTok inbox: finish it in the TikTok app.').waitFor();
    await status(post(page, 'Brouillon boîte'), 'In your TikTok inbox');
    await page.getByRole('link', { name: 'View on TikTok' }).first().waitFor();
    await page.getByRole('button', { name: 'New schedule' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New schedule' });
    await chooseAccount(dialog.getByRole('combobox', { name: 'TikTok account' }), tiktokName);
    await dialog.getByLabel('Who can view this video').waitFor();
    await dialog.getByRole('checkbox', { name: 'Send to my TikTok inbox' }).check();
    await dialog.getByText(/The video arrives as a draft in your TikTok inbox/).waitFor();
    await expect(dialog.getByLabel('Who can view this video').count()).resolves.toBe(0);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await languages.getByRole('button', { name: 'fr' }).click();
  });

  // Closing the composer during an upload closed it without a word and the upload went with it.
  // The upload's PATCH requests are held, so it stays in progress for as long as the test needs.
  it('asks before closing during an upload: continue keeps it, abandon stops it and closes', async () => {
    const page = await signedIn({ viewport: { width: 320, height: 700 } });
    await page.goto('/scheduler');
    await openForm(page);
    const held = await holdUploadBytes(page);
    expect(await leavingAsks(page)).toBe(false);
    await form(page).getByLabel('Importer des vidéos').setInputFiles(firstClip());
    await expect.poll(() => held.length).toBe(1);
    // The bar says what is sent of what, in words as well as its number.
    const bar = form(page).getByRole('progressbar', {
      name: "Progression de l'envoi de first-clip.mp4",
    });
    await expect
      .poll(() => bar.getAttribute('aria-valuetext'))
      // (Intl puts a narrow no-break space before the unit.)
      .toMatch(/^Envoi en cours… \d+ % · \d+(,\d)?\sko sur \d+(,\d)?\sko$/);
    await form(page).getByTestId('upload-transfer').waitFor();
    expect(await bar.getAttribute('aria-valuenow')).toMatch(/^\d+$/);
    expect(await leavingAsks(page)).toBe(true);
    // Nothing wider than a small phone with the progress in words.
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(
      320,
    );

    // Escape asks; the composer stays behind the question.
    await page.keyboard.press('Escape');
    const question = page.getByRole('dialog', { name: "Abandonner l'envoi ?" });
    await question.getByText("1 vidéo est encore en cours d'envoi.", { exact: false }).waitFor();
    await form(page).waitFor();
    const questionTitle = await question.getAttribute('aria-labelledby');
    expect(await axeViolations(page, `[aria-labelledby="${questionTitle}"]`)).toEqual([]);

    // 'Continuer l'envoi': the question goes, the composer and its upload stay.
    await question.getByRole('button', { name: "Continuer l'envoi" }).click();
    await question.waitFor({ state: 'detached' });
    await form(page).waitFor();
    expect(await bar.getAttribute('aria-valuetext')).toMatch(/^Envoi en cours… /);

    // The footer's 'Annuler' asks too; Escape answers the question alone (continue).
    await form(page).getByRole('button', { name: 'Annuler', exact: true }).click();
    await question.waitFor();
    await page.keyboard.press('Escape');
    await question.waitFor({ state: 'detached' });
    await form(page).waitFor();

    // The ✕ asks; 'Abandonner' stops the upload (its unfinished upload deleted) and closes.
    await form(page).getByRole('button', { name: 'Fermer', exact: true }).click();
    const terminated = page.waitForRequest(
      (request) => request.method() === 'DELETE' && request.url().includes('/api/uploads/'),
    );
    await question.getByRole('button', { name: 'Abandonner', exact: true }).click();
    await form(page).waitFor({ state: 'detached' });
    await terminated;
    expect(await leavingAsks(page)).toBe(false);

    // Opened again, the form holds no video, and closes without asking.
    await openForm(page);
    expect(await form(page).getByRole('progressbar').count()).toBe(0);
    await page.keyboard.press('Escape');
    await form(page).waitFor({ state: 'detached' });
  });

  // Leaving the scheduler inside the app (here the browser's Back, which the open composer does
  // not cover) unmounted the composer and silently stopped its upload.
  it("asks before Back leaves the composer's upload: continue stays, abandon stops it and goes", async () => {
    const page = await signedIn();
    await page.goto('/tiktok');
    const nav = page.getByRole('navigation', { name: 'Navigation principale' });
    await nav.getByRole('link', { name: 'Programmateur de vidéos' }).click();
    await openForm(page);
    const held = await holdUploadBytes(page);
    await form(page).getByLabel('Importer des vidéos').setInputFiles(firstClip());
    await expect.poll(() => held.length).toBe(1);

    const question = page.getByRole('dialog', { name: "Abandonner l'envoi ?" });
    await page.goBack();
    await question.getByText('Si vous quittez cette page maintenant', { exact: false }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/scheduler');

    await question.getByRole('button', { name: "Continuer l'envoi" }).click();
    await question.waitFor({ state: 'detached' });
    expect(new URL(page.url()).pathname).toBe('/scheduler');
    const bar = form(page).getByRole('progressbar', {
      name: "Progression de l'envoi de first-clip.mp4",
    });
    expect(await bar.getAttribute('aria-valuetext')).toMatch(/^Envoi en cours… /);

    await page.goBack();
    const terminated = page.waitForRequest(
      (request) => request.method() === 'DELETE' && request.url().includes('/api/uploads/'),
    );
    await question.getByRole('button', { name: 'Abandonner', exact: true }).click();
    await terminated;
    await page.waitForURL((url) => url.pathname === '/tiktok');
    expect(await leavingAsks(page)).toBe(false);
  });
});
