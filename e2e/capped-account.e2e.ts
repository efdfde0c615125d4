// Issue 47: with TikTok answering creator_info 'cannot post now' for today's cap, the composer
// said the post could still be scheduled for later but offered no privacy and disabled every
// interaction, so nothing could be scheduled for any day. Now a post due on a later day uses
// TikTok's last answer, dated; a post due today and a suspended account stay blocked. French,
// then English.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { addAccount, chooseAccount, connectThroughSandbox, signUp } from './support/actions.ts';
import { axeViolations } from './support/axe.ts';
import { uploadVideo } from './support/posts.ts';
import { useBrowserSuite } from './support/suite.ts';
import { postableClip, useTempVideos } from './support/videos.ts';

// NODE_ENV=test exposes the sandbox's control, used to make TikTok refuse posts.
const { openPage, server } = useBrowserSuite({ NODE_ENV: 'test' });
const videos = useTempVideos('cadence-capped-e2e-', {
  'capped-clip.mp4': { ...postableClip, durationSeconds: 2 },
});

const texts = {
  fr: {
    language: 'fr',
    form: 'Nouvelle programmation',
    account: 'Compte TikTok',
    privacy: 'Qui peut voir cette vidéo',
    scheduled: 'À une heure précise',
    date: 'Date',
    time: 'Heure',
    stitch: 'Collage',
    comment: 'Commenter',
    consent: /^J'accepte et je confirme/,
    submit: 'Programmer',
    scheduledToast: 'Vidéos programmées avec succès !',
    later: 'Vous pouvez quand même la programmer à partir de demain.',
    reportedOn: /^Options de ce compte d'après TikTok le .+ : TikTok n'en donne pas aujourd'hui\./,
    today:
      "TikTok n'accepte plus de publication de ce compte aujourd'hui : choisissez une date à partir de demain.",
    suspended: /TikTok a suspendu la publication pour ce compte\./,
  },
  en: {
    language: 'en',
    form: 'New schedule',
    account: 'TikTok account',
    privacy: 'Who can view this video',
    scheduled: 'At a specific time',
    date: 'Date',
    time: 'Time',
    stitch: 'Stitch',
    comment: 'Comment',
    consent: /^I agree and confirm/,
    submit: 'Schedule',
    scheduledToast: 'Videos scheduled successfully!',
    later: 'You can still schedule it from tomorrow on.',
    reportedOn: /^This account's options as TikTok reported them on .+: TikTok gives none today\./,
    today: 'TikTok takes no more posts from this account today: choose a date from tomorrow on.',
    suspended: /TikTok has suspended posting for this account\./,
  },
} as const;
type Texts = (typeof texts)[keyof typeof texts];

async function tiktokRefuses(
  username: string,
  cannotPost: 'spam_risk_too_many_posts' | 'spam_risk_user_banned_from_posting' | null,
  extra: Record<string, unknown> = {},
) {
  const response = await fetch(`${server().url}/sandbox/tiktok/_control/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      action: 'user_flags',
      user: { username },
      cannot_post: cannotPost,
      ...extra,
    }),
  });
  expect(response.status).toBe(200);
}

/** 'yyyy-MM-dd' of today plus `days` on the browser's clocks (the person's zone here). */
const browserDate = (page: Page, days: number) =>
  page.evaluate((offset) => {
    const day = new Date();
    day.setDate(day.getDate() + offset);
    const pad = (value: number) => String(value).padStart(2, '0');
    return `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}`;
  }, days);

/** The composer opened on the video, with `username` chosen (TikTok's creator_info asked). */
async function openComposer(page: Page, text: Texts, mediaId: string, username: string) {
  await page.goto(`/scheduler?media=${mediaId}`);
  const form = page.getByRole('dialog', { name: text.form });
  await chooseAccount(form.getByRole('combobox', { name: text.account, exact: true }), username);
  await form.getByTestId('creator-nickname').waitFor();
  return form;
}

const offeredLevels = (page: Page, text: Texts) =>
  page
    .getByLabel(text.privacy)
    .locator('option')
    .evaluateAll((options) => options.map((option) => option.getAttribute('value') ?? ''));

async function checkCappedAccount(page: Page, text: Texts, username: string) {
  await page.goto('/tiktok');
  await addAccount(page, username);
  await connectThroughSandbox(page, username, username);
  await tiktokRefuses(username, null, { private_account: true, stitch_disabled: true });
  const mediaId = await uploadVideo(page, videos.path('capped-clip.mp4'));
  // The form opens while TikTok answers: Cadence keeps that answer.
  await openComposer(page, text, mediaId, username);
  await expect.poll(() => offeredLevels(page, text)).toContain('FOLLOWER_OF_CREATOR');

  // Today's cap reached.
  await tiktokRefuses(username, 'spam_risk_too_many_posts');
  const form = await openComposer(page, text, mediaId, username);
  await form.getByRole('alert').getByText(text.later, { exact: false }).waitFor();
  await form.getByRole('radio', { name: text.scheduled }).check();
  const date = form.getByLabel(text.date, { exact: true });
  const privacy = form.getByLabel(text.privacy);
  const submit = form.getByRole('button', { name: text.submit, exact: true });
  const note = form.getByTestId('creator-options-note');

  // Today: nothing to choose, and the form says to pick tomorrow or later.
  await date.fill(await browserDate(page, 0));
  await form.getByLabel(text.time, { exact: true }).fill('23:59');
  await note.getByText(text.today, { exact: true }).waitFor();
  await expect(privacy.isDisabled()).resolves.toBe(true);
  await expect(submit.isDisabled()).resolves.toBe(true);

  // Tomorrow: TikTok's last answer, dated, with its disabled interaction still disabled.
  await date.fill(await browserDate(page, 1));
  await note.getByText(text.reportedOn).waitFor();
  await expect
    .poll(() => offeredLevels(page, text))
    .toEqual(['', 'FOLLOWER_OF_CREATOR', 'MUTUAL_FOLLOW_FRIENDS', 'SELF_ONLY']);
  // No privacy chosen for the creator (TikTok's guidelines), interactions as TikTok allows them.
  await expect(privacy.inputValue()).resolves.toBe('');
  await expect(form.getByRole('checkbox', { name: text.stitch }).isDisabled()).resolves.toBe(true);
  await expect(form.getByRole('checkbox', { name: text.comment }).isDisabled()).resolves.toBe(
    false,
  );
  expect(await axeViolations(page, '[role="dialog"]')).toEqual([]);

  await privacy.selectOption('FOLLOWER_OF_CREATOR');
  await form.getByRole('checkbox', { name: text.comment }).check();
  await form.getByLabel(text.consent).check();
  await submit.click();
  await page.getByRole('status').getByText(text.scheduledToast).waitFor();
  await form.waitFor({ state: 'detached' });

  // Suspended: TikTok's sentence, no 'later' promise, and nothing can be scheduled on any day.
  await tiktokRefuses(username, 'spam_risk_user_banned_from_posting');
  const suspended = await openComposer(page, text, mediaId, username);
  const alert = suspended.getByRole('alert');
  await alert.getByText(text.suspended).waitFor();
  await expect(alert.textContent()).resolves.not.toContain(text.later);
  await suspended.getByRole('radio', { name: text.scheduled }).check();
  await suspended.getByLabel(text.date, { exact: true }).fill(await browserDate(page, 7));
  await expect(suspended.getByLabel(text.privacy).isDisabled()).resolves.toBe(true);
  await expect(
    suspended.getByRole('button', { name: text.submit, exact: true }).isDisabled(),
  ).resolves.toBe(true);
  await page.keyboard.press('Escape');
  await suspended.waitFor({ state: 'detached' });
  await tiktokRefuses(username, null);
}

describe('a TikTok account at its daily cap in the composer', () => {
  it("schedules tomorrow with TikTok's last options, dated; today and a suspension stay blocked (fr, en)", async () => {
    const page = await openPage();
    await signUp(page);
    await checkCappedAccount(page, texts.fr, 'capped_fr');

    await page
      .getByRole('group', { name: /^(Langue|Language)$/ })
      .getByRole('button', { name: 'en' })
      .click();
    await page.getByRole('heading', { name: 'Video scheduler' }).waitFor();
    await checkCappedAccount(page, texts.en, 'capped_en');
  });
});
