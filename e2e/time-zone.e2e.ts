import type { Language } from '@cadence/shared/errors';
import { localDateOf, localTimeOf } from '@cadence/shared/schedule/planner';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { addAccount, connectThroughSandbox, newUser, signUpThroughApi } from './support/actions.ts';
import { axeViolations } from './support/axe.ts';
import { listPosts, schedulePosts } from './support/posts.ts';
import { useBrowserSuite } from './support/suite.ts';
import { postableClip, useTempVideos } from './support/videos.ts';

// The person's time zone in /settings (issue 47): chosen from a searchable list, saved on the
// account, and followed at once by every time of the app, while posts keep their instant.
const { openPage } = useBrowserSuite();
const videos = useTempVideos('cadence-time-zone-e2e-', { 'clip.mp4': postableClip });

const texts = {
  fr: {
    settings: 'Paramètres',
    scheduler: 'Programmateur de vidéos',
    field: 'Fuseau horaire',
    save: 'Enregistrer le fuseau',
    saved: 'Fuseau horaire enregistré : heure de Tokyo.',
    keeps: /ne déplace pas vos publications prévues/,
    now: /^Il est actuellement \d\d:\d\d, heure de Tokyo \(UTC\+9\)\.$/,
    zone: (city: string) => `Horaires en heure de ${city}`,
  },
  en: {
    settings: 'Settings',
    scheduler: 'Video scheduler',
    field: 'Time zone',
    save: 'Save time zone',
    saved: 'Time zone saved: Tokyo time.',
    keeps: /does not move your scheduled posts/,
    now: /^It is now \d\d:\d\d, Tokyo time \(GMT\+9\)\.$/,
    zone: (city: string) => `All times are ${city} time`,
  },
} as const;

/** 'yyyy-MM-dd' and 'HH:MM' of `instant` on the clocks of `timeZone`. */
const clock = (instant: string, timeZone: string) => ({
  date: localDateOf(new Date(instant), timeZone),
  time: localTimeOf(new Date(instant), timeZone),
});

/** The queue's row of the post, in the section of the day it is due on. */
const queued = (page: Page, date: string, time: string) =>
  page
    .locator(`section[aria-labelledby="day-${date}"]`)
    .getByRole('article')
    .filter({ hasText: 'Tard le soir' })
    .locator('time', { hasText: time });

describe('the time zone setting', () => {
  for (const language of ['fr', 'en'] as const satisfies readonly Language[]) {
    it(`(${language}) moves every time of the app to the zone chosen, and no post`, async () => {
      const t = texts[language];
      const page = await openPage({ timezoneId: 'Europe/Paris' });
      await page.addInitScript(`localStorage.setItem('cadence.language', '${language}')`);
      await signUpThroughApi(page, newUser('zone'), language);
      await page.goto('/tiktok');
      await addAccount(page, 'zone_creator');
      await connectThroughSandbox(page, 'zone_creator', 'zone_creator');
      const accounts = await page.request.get('/api/accounts');
      const accountId = ((await accounts.json()) as { accounts: { id: string }[] }).accounts[0]!.id;

      // 22:30 in Paris, five days ahead: already the next morning in Tokyo.
      const inFiveDays = clock(new Date(Date.now() + 5 * 86_400_000).toISOString(), 'Europe/Paris');
      await schedulePosts(page, accountId, videos.path('clip.mp4'), ['Tard le soir'], {
        publishType: 'scheduled',
        date: inFiveDays.date,
        time: '22:30',
        timeZone: 'Europe/Paris',
      });
      const [post] = await listPosts(page);
      const dueAt = post!.dueAt;
      const paris = clock(dueAt, 'Europe/Paris');
      const tokyo = clock(dueAt, 'Asia/Tokyo');
      expect(paris.time).toBe('22:30');
      expect(tokyo.date).not.toBe(paris.date);

      await page.goto('/scheduler');
      await queued(page, paris.date, paris.time).waitFor();
      await page.getByText(t.zone('Paris')).waitFor();

      // /settings: the browser's zone shown, a search, a choice, the time there now.
      await page.getByRole('link', { name: t.settings }).click();
      const field = page.getByRole('combobox', { name: t.field });
      await field.fill('tokyo');
      await page.getByRole('option', { name: /^Tokyo/ }).click();
      await expect.poll(() => page.getByTestId('time-zone-now').textContent()).toMatch(t.now);
      await page.getByText(t.keeps).waitFor();
      await page.getByRole('button', { name: t.save }).click();
      await page.getByText(t.saved).waitFor();
      expect(await axeViolations(page)).toEqual([]);

      // Back to the queue without a reload: the post is now under Tokyo's day, at Tokyo's time.
      await page.getByRole('link', { name: t.scheduler }).first().click();
      await queued(page, tokyo.date, tokyo.time).waitFor();
      await page.getByText(t.zone('Tokyo')).waitFor();

      // The calendar's week puts it on Tokyo's day and hour; reloaded, the choice is the account's.
      await page.goto(`/scheduler/calendar?view=week&date=${tokyo.date}`);
      await page.getByText(t.zone('Tokyo')).waitFor();
      const hour = Number(tokyo.time.slice(0, 2));
      await page
        .locator(
          `[data-testid="calendar"] [data-date="${tokyo.date}"][data-hour="${hour}"] [data-post-id="${post!.id}"]`,
        )
        .waitFor();

      // The post's instant never moved.
      const [after] = await listPosts(page);
      expect(after!.dueAt).toBe(dueAt);
      const me = await page.request.get('/api/me');
      expect(((await me.json()) as { timeZone: string }).timeZone).toBe('Asia/Tokyo');
    });
  }
});
