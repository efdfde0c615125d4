// The unaudited lane (issue 12) in the browser: Cadence started as an app TikTok has not audited
// yet (TIKTOK_APP_AUDITED=false). The composer offers only 'Only me', says why, and blocks a public
// account with the way to make it private; a private account posts. French, then English.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  addAccount,
  chooseAccount,
  connectThroughSandbox,
  holdPublicConfig,
  signUp,
} from './support/actions.ts';
import { axeViolations } from './support/axe.ts';
import { uploadVideo } from './support/posts.ts';
import { useBrowserSuite } from './support/suite.ts';
import { postableClip, useTempVideos } from './support/videos.ts';

// NODE_ENV=test exposes the sandbox's control, used to make one TikTok account private.
const { openPage, server } = useBrowserSuite({ NODE_ENV: 'test', TIKTOK_APP_AUDITED: 'false' });
const videos = useTempVideos('cadence-unaudited-e2e-', {
  'private-clip.mp4': { ...postableClip, durationSeconds: 2 },
});

const texts = {
  fr: {
    form: 'Nouvelle programmation',
    account: 'Compte TikTok',
    privacy: 'Qui peut voir cette vidéo',
    onlyMe: 'Moi uniquement',
    title: 'Publication privée uniquement pour le moment',
    body: 'TikTok n’a pas encore validé cette application. En attendant, TikTok n’autorise que des publications privées (« Moi uniquement ») sur des comptes privés, et au plus 5 personnes peuvent publier via l’application sur 24 heures.',
    publicAccount:
      'Ce compte TikTok est public. Passez-le en privé dans l’application TikTok (Paramètres et confidentialité › Confidentialité › Compte privé) pour publier via cette application pour le moment.',
    submit: 'Programmer',
  },
  en: {
    form: 'New schedule',
    account: 'TikTok account',
    privacy: 'Who can view this video',
    onlyMe: 'Only me',
    title: 'Private posting only for now',
    body: 'TikTok has not reviewed this app yet. Until it does, TikTok allows only private posts (“Only me”) to private accounts, and at most 5 people can post through the app in 24 hours.',
    publicAccount:
      'This TikTok account is public. Make it private in the TikTok app (Settings and privacy › Privacy › Private account) to post through this app for now.',
    submit: 'Schedule',
  },
} as const;

const dialog = (page: Page, language: keyof typeof texts) =>
  page.getByRole('dialog', { name: texts[language].form });

/** The composer on `account`: only 'Only me' offered, the explanation, and (public) the block. */
async function checkComposer(
  page: Page,
  language: keyof typeof texts,
  account: string,
  visibility: 'public' | 'private',
) {
  const text = texts[language];
  const form = dialog(page, language);
  await chooseAccount(form.getByRole('combobox', { name: text.account, exact: true }), account);
  const notice = form.getByTestId('unaudited-notice');
  await notice.getByText(text.title, { exact: true }).waitFor();
  await notice.getByText(text.body, { exact: true }).waitFor();
  const privacy = form.getByLabel(text.privacy);
  // The placeholder, then 'Only me' alone, and nothing chosen for the creator.
  await expect
    .poll(async () => (await privacy.locator('option').allTextContents()).slice(1))
    .toEqual([text.onlyMe]);
  await expect(privacy.inputValue()).resolves.toBe('');
  const submit = form.getByRole('button', { name: text.submit, exact: true });
  if (visibility === 'public') {
    await notice.getByText(text.publicAccount, { exact: true }).waitFor();
    await expect(submit.isDisabled()).resolves.toBe(true);
  } else {
    // Chosen after a public account: its notice goes once this account's creator_info is in.
    await notice.getByText(text.publicAccount).waitFor({ state: 'detached' });
    await expect.poll(() => submit.isDisabled()).toBe(false);
  }
  expect(await axeViolations(page, '[role="dialog"]')).toEqual([]);
}

describe('the composer of an app TikTok has not audited', () => {
  it("offers only 'Only me', explains why, blocks a public account and posts from a private one", async () => {
    const page = await openPage();
    await signUp(page);
    for (const name of ['open_creator', 'quiet_creator']) {
      await addAccount(page, name);
      await connectThroughSandbox(page, name, name);
    }
    // quiet_creator made their TikTok account private; open_creator's stays public.
    const flags = await fetch(`${server().url}/sandbox/tiktok/_control/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        action: 'user_flags',
        user: { username: 'quiet_creator' },
        private_account: true,
      }),
    });
    expect(flags.status).toBe(200);
    const mediaId = await uploadVideo(page, videos.path('private-clip.mp4'));

    // The video attached: the form opens on it.
    await page.goto(`/scheduler?media=${mediaId}`);
    await dialog(page, 'fr').waitFor();
    await checkComposer(page, 'fr', 'open_creator', 'public');
    await checkComposer(page, 'fr', 'quiet_creator', 'private');

    // 'Only me' on the private account: scheduled, and TikTok publishes it privately.
    const form = dialog(page, 'fr');
    await form.getByLabel(texts.fr.privacy).selectOption('SELF_ONLY');
    await form.getByLabel(/^J'accepte et je confirme/).check();
    await form.getByRole('button', { name: texts.fr.submit, exact: true }).click();
    await page.getByRole('status').getByText('Vidéos programmées avec succès !').waitFor();
    await form.waitFor({ state: 'detached' });
    await expect
      .poll(
        async () => {
          const ledger = await fetch(`${server().url}/sandbox/tiktok/_ledger`);
          const { posts } = (await ledger.json()) as {
            posts: { username?: string; post_info: { privacy_level?: string } | null }[];
          };
          return posts.map((post) => post.post_info?.privacy_level);
        },
        { timeout: 30_000, interval: 250 },
      )
      .toEqual(['SELF_ONLY']);

    // The same in English.
    await page
      .getByRole('group', { name: /^(Langue|Language)$/ })
      .getByRole('button', { name: 'en' })
      .click();
    await page.getByRole('heading', { name: 'Video scheduler' }).waitFor();
    await page.getByRole('button', { name: texts.en.form }).first().click();
    await checkComposer(page, 'en', 'open_creator', 'public');
    await checkComposer(page, 'en', 'quiet_creator', 'private');
  });

  // Whether the app is audited comes with /api/public-config: before it, the composer offered
  // TikTok's every level (it took 'audited' for granted), which the server then refused.
  it('offers no privacy level, and does not schedule, until it knows the app is unaudited', async () => {
    const page = await openPage();
    await signUp(page);
    await addAccount(page, 'early_creator');
    await connectThroughSandbox(page, 'early_creator', 'early_creator');
    const config = await holdPublicConfig(page);
    await page.goto('/scheduler');
    await page.getByRole('button', { name: texts.fr.form }).first().click();
    const form = dialog(page, 'fr');
    await chooseAccount(
      form.getByRole('combobox', { name: texts.fr.account, exact: true }),
      'early_creator',
    );
    // TikTok's creator_info is shown (who will post)…
    await form.getByTestId('creator-nickname').waitFor();
    expect(config.held()).toBeGreaterThan(0);
    const privacy = form.getByLabel(texts.fr.privacy);
    // …the configuration is not: nothing is offered yet.
    await expect(privacy.isDisabled()).resolves.toBe(true);
    expect((await privacy.locator('option').allTextContents()).slice(1)).toEqual([]);
    const submit = form.getByRole('button', { name: texts.fr.submit, exact: true });
    await expect(submit.isDisabled()).resolves.toBe(true);

    await config.release();
    await expect
      .poll(async () => (await privacy.locator('option').allTextContents()).slice(1))
      .toEqual([texts.fr.onlyMe]);
    await form.getByTestId('unaudited-notice').getByText(texts.fr.publicAccount).waitFor();
  });

  it('fits a phone at 390 px, the explanation included', async () => {
    const page = await openPage({ viewport: { width: 390, height: 844 } });
    await signUp(page);
    await addAccount(page, 'phone_open');
    await connectThroughSandbox(page, 'phone_open', 'phone_open');
    await page.goto('/scheduler');
    await page.getByRole('button', { name: texts.fr.form }).first().click();
    const form = dialog(page, 'fr');
    await chooseAccount(
      form.getByRole('combobox', { name: texts.fr.account, exact: true }),
      'phone_open',
    );
    await form.getByTestId('unaudited-notice').getByText(texts.fr.publicAccount).waitFor();
    const box = await form.getByTestId('unaudited-notice').boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    const scrollWidth = Number(await page.evaluate('document.documentElement.scrollWidth'));
    expect(scrollWidth).toBeLessThanOrEqual(390);
  });
});
