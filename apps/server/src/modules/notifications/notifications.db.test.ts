import type { Notification, NotificationList } from '@cadence/shared/schemas/notification';
import { sql } from 'kysely';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../../../../../e2e/support/server.ts';
import { startSmtpTestServer, type SmtpTestServer } from '../../test-support/smtp-test-server.ts';
import { startMailWorkers } from '../mail/jobs.ts';
import { usePublishingTestApp } from '../publishing/test-kit.ts';
import { api, signUp, type TestUser } from '../schedules/test-kit.ts';
import { createUnsubscribeTokens } from './unsubscribe-token.ts';

// The SMTP server starts before the app (registered first), which reads SMTP_URL from `env`.
let smtp: SmtpTestServer;
const env: NodeJS.ProcessEnv = { MAIL_FROM: 'Cadence <no-reply@cadence.test>' };
beforeAll(async () => {
  smtp = await startSmtpTestServer();
  env.SMTP_URL = smtp.url;
});
afterAll(() => smtp.close());

const kit = usePublishingTestApp(env);
const { sandbox, waitForStatus, publishNow } = kit;

beforeAll(async () => {
  await startMailWorkers(kit.t.context.boss, kit.t.context.mail, {
    logger: pino({ level: 'silent' }),
  });
});

async function notificationsOf(user: TestUser): Promise<NotificationList> {
  const response = await api(kit.t, user.cookie, 'GET', '/api/notifications');
  expect(response.statusCode, response.body).toBe(200);
  return response.json<NotificationList>();
}

/** Saves which notifications `user` gets by email, and whether in one daily digest. */
async function chooseEmails(user: TestUser, emailTypes: string[], digest: boolean): Promise<void> {
  const saved = await api(kit.t, user.cookie, 'PUT', '/api/notifications/settings', {
    emailTypes,
    digest,
  });
  expect(saved.statusCode, saved.body).toBe(200);
}

const failPrivacy = () =>
  sandbox().control.failNext('video_init', {
    type: 'error_body',
    code: 'privacy_level_option_mismatch',
    status: 403,
  });

/** A header of the raw message as sent (unfolded). */
function rawHeader(raw: string, name: string): string | undefined {
  const head = raw.split(/\r?\n\r?\n/)[0]?.replace(/\r?\n[ \t]+/g, ' ') ?? '';
  const line = head
    .split(/\r?\n/)
    .find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line?.slice(name.length + 1).trim();
}

/** The path and query of the one-click URL of a received message's List-Unsubscribe header. */
function oneClickUrl(raw: string): string {
  const url = new URL((rawHeader(raw, 'List-Unsubscribe') ?? '').replace(/^<|>$/g, ''));
  return url.pathname + url.search;
}

describe('a failed post', () => {
  it('is one notification and one email in French, with the reason in words and a one-click unsubscribe', async () => {
    const user = kit.user;
    const before = smtp.mailsTo(user.email).length;
    failPrivacy();
    const { post } = await publishNow('Fails politely');
    await waitForStatus(post.id, ['failed']);

    const list = await notificationsOf(user);
    const failed = list.notifications.filter(
      (notification) => notification.type === 'post_failed' && notification.data.postId === post.id,
    );
    expect(failed).toEqual([
      expect.objectContaining({
        read: false,
        data: expect.objectContaining({
          failReason: 'privacy_level_option_mismatch',
          caption: 'Fails politely',
        }),
      }),
    ]);
    expect(list.unread).toBeGreaterThanOrEqual(1);

    const mail = await smtp.waitForMail(user.email, { after: before });
    expect(mail.subject).toBe('Cadence : Publication échouée');
    // Which post: its caption.
    expect(mail.text).toContain('La publication de « Fails politely »');
    expect(mail.text).toContain('a échoué');
    // The reason in the scheduler's own words (locale file), not the code.
    expect(mail.text).not.toContain('privacy_level_option_mismatch');
    expect(mail.text).toContain(`/scheduler/history?post=${post.id}`);
    expect(mail.text).toMatch(/\/unsubscribe\?token=/);
    expect(rawHeader(mail.raw, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');

    // RFC 8058: the mail client POSTs the form body to the header's URL, with no cookie.
    const oneClick = await kit.t.app.inject({
      method: 'POST',
      url: oneClickUrl(mail.raw),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.statusCode, oneClick.body).toBe(200);
    expect(oneClick.json()).toEqual({ type: 'post_failed' });
    const settings = await api(kit.t, user.cookie, 'GET', '/api/notifications/settings');
    expect(settings.json<{ emailTypes: string[] }>().emailTypes).not.toContain('post_failed');

    // The next failure is still in the bell, but mailed no more.
    failPrivacy();
    const second = await publishNow('Fails quietly');
    await waitForStatus(second.post.id, ['failed']);
    await waitFor(
      async () =>
        (await notificationsOf(user)).notifications.find(
          (notification) => notification.data.postId === second.post.id,
        ),
      { what: 'the second failure notification' },
    );
    await expect(
      smtp.waitForMail(user.email, { after: before + 1, timeoutMs: 1_500 }),
    ).rejects.toThrow();
    expect(smtp.mailsTo(user.email)).toHaveLength(before + 1);
  });

  it('a published post is in the bell, and not mailed by default', async () => {
    const before = smtp.mailsTo(kit.user.email).length;
    const { post } = await publishNow('Goes out');
    await waitForStatus(post.id, ['completed']);
    const list = await notificationsOf(kit.user);
    expect(
      list.notifications.filter(
        (notification) =>
          notification.type === 'post_published' && notification.data.postId === post.id,
      ),
    ).toHaveLength(1);
    expect(smtp.mailsTo(kit.user.email)).toHaveLength(before);
  });
});

describe('fan-out', () => {
  let zoe: TestUser;
  beforeAll(async () => {
    zoe = await signUp(kit.t, 'zoe-notified@example.com');
  });

  it('records an event once and mails it once, however often it is reported', async () => {
    const event = {
      userId: zoe.id,
      type: 'account_reconnect_needed' as const,
      dedupeKey: 'account_reconnect_needed:test-account:grant-1',
      data: { account: 'zoe_tiktok' },
    };
    await Promise.all([
      kit.t.context.notifications.notify(event),
      kit.t.context.notifications.notify(event),
    ]);
    await kit.t.context.notifications.notify(event);
    const list = await notificationsOf(zoe);
    expect(list.notifications.filter((n) => n.type === 'account_reconnect_needed')).toHaveLength(1);
    const mail = await smtp.waitForMail(zoe.email);
    expect(mail.text).toContain('@zoe_tiktok');
    await expect(smtp.waitForMail(zoe.email, { after: 1, timeoutMs: 1_500 })).rejects.toThrow();
  });

  it('marks everything read when the panel opens', async () => {
    expect((await notificationsOf(zoe)).unread).toBeGreaterThan(0);
    const read = await api(kit.t, zoe.cookie, 'POST', '/api/notifications/read');
    expect(read.statusCode).toBe(204);
    const list = await notificationsOf(zoe);
    expect(list.unread).toBe(0);
    expect(list.notifications.every((notification) => notification.read)).toBe(true);
  });

  it('writes the date of an English email as the web app does (1 December 2026 at 10:00), not US-style', async () => {
    const ella = await signUp(kit.t, 'ella-english@example.com');
    const me = await api(kit.t, ella.cookie, 'PATCH', '/api/me', {
      preferredLanguage: 'en',
      timeZone: 'Europe/Paris',
    });
    expect(me.statusCode, me.body).toBe(200);
    await chooseEmails(ella, ['post_postponed'], false);
    await kit.t.context.notifications.notify({
      userId: ella.id,
      type: 'post_postponed',
      dedupeKey: 'post_postponed:english-date',
      data: { postId: 'english-date', account: 'ella', dueAt: '2026-12-01T09:00:00.000Z' },
    });
    const mail = await smtp.waitForMail(ella.email);
    expect(mail.text).toContain('is postponed to 1 December 2026 at 10:00.');
  });

  it('sees only my own notifications', async () => {
    const list = await notificationsOf(zoe);
    expect(list.notifications.some((n) => n.data.postId !== undefined)).toBe(false);
  });

  it('gathers a digest person’s emails into one daily message, sent once', async () => {
    const dana = await signUp(kit.t, 'dana-digest@example.com');
    await chooseEmails(dana, ['post_failed', 'story_ready'], true);
    await kit.t.context.notifications.notify({
      userId: dana.id,
      type: 'post_failed',
      dedupeKey: 'post_failed:digest-1',
      data: { postId: 'digest-1', account: 'dana', failReason: 'video_too_long' },
    });
    await kit.t.context.notifications.notify({
      userId: dana.id,
      type: 'story_ready',
      dedupeKey: 'story_ready:digest-2',
      data: { storyId: 'digest-2' },
    });
    await kit.t.context.notifications.notify({
      userId: dana.id,
      type: 'post_published',
      dedupeKey: 'post_published:digest-3',
      data: { postId: 'digest-3', account: 'dana' },
    });
    expect(smtp.mailsTo(dana.email)).toHaveLength(0);
    // Dana has no time zone: her day is UTC's, and 07:xx UTC is her digest's hour.
    const morning = new Date('2026-06-10T07:01:00Z');
    const results = await Promise.all([
      kit.t.context.notifications.sendDigests(morning),
      kit.t.context.notifications.sendDigests(morning),
    ]);
    expect(results.reduce((sum, sent) => sum + sent, 0)).toBe(1);
    const mail = await smtp.waitForMail(dana.email);
    expect(mail.subject).toBe('Cadence : votre résumé du jour');
    expect(mail.text).toContain('Votre story est prête.');
    expect(mail.text).toContain('@dana a échoué');
    expect(mail.text).not.toContain('est publiée');
    await expect(kit.t.context.notifications.sendDigests(morning)).resolves.toBe(0);
    // A digest's one-click header turns off every email.
    const off = await kit.t.app.inject({ method: 'POST', url: oneClickUrl(mail.raw) });
    expect(off.json()).toEqual({ type: 'all' });
    const settings = await api(kit.t, dana.cookie, 'GET', '/api/notifications/settings');
    expect(settings.json()).toEqual({ emailTypes: [], digest: true });
  });

  it('deletes notifications after 90 days', async () => {
    await kit.t.context.notifications.notify({
      userId: zoe.id,
      type: 'story_ready',
      dedupeKey: 'story_ready:old',
      data: {},
    });
    await kit.t.context.database.db
      .updateTable('notifications')
      .set({ created_at: sql<Date>`now() - interval '91 days'` })
      .where('dedupe_key', '=', 'story_ready:old')
      .execute();
    await expect(kit.t.context.notifications.purgeOld()).resolves.toBeGreaterThanOrEqual(1);
    const left = await kit.t.context.database.db
      .selectFrom('notifications')
      .select('id')
      .where('dedupe_key', '=', 'story_ready:old')
      .execute();
    expect(left).toEqual([]);
  });
});

describe('unsubscribe links and settings input', () => {
  it('refuses a link that is not ours with a translated 400, and tells nothing about who exists', async () => {
    const ours = createUnsubscribeTokens(kit.t.config.sessionSecret);
    const forged = createUnsubscribeTokens('another secret entirely');
    const valid = ours.create(kit.user.id, 'story_ready');
    for (const token of [
      forged.create(kit.user.id, 'story_ready'),
      `${valid.slice(0, -2)}xx`,
      valid.replace('story_ready', 'post_failed'),
      'nonsense',
      '',
    ]) {
      const response = await kit.t.app.inject({
        method: 'POST',
        url: `/api/notifications/unsubscribe?token=${encodeURIComponent(token)}`,
      });
      expect(response.statusCode, token).toBe(400);
      expect(response.json()).toMatchObject({
        fields: { token: 'settings.errors.badUnsubscribeLink' },
      });
    }
    // A signed link of nobody answers exactly like one of somebody.
    const nobody = await kit.t.app.inject({
      method: 'POST',
      url: `/api/notifications/unsubscribe?token=${encodeURIComponent(ours.create('no-such-user', 'story_ready'))}`,
    });
    const somebody = await kit.t.app.inject({
      method: 'POST',
      url: `/api/notifications/unsubscribe?token=${encodeURIComponent(valid)}`,
    });
    expect([nobody.statusCode, nobody.body]).toEqual([somebody.statusCode, somebody.body]);
  });

  it('refuses unknown or repeated types with translated errors', async () => {
    for (const body of [
      { emailTypes: ['post_failed', 'post_failed'], digest: false },
      { emailTypes: ['nope'], digest: false },
      { emailTypes: [], digest: 'yes' },
      { emailTypes: [], digest: false, extra: 1 },
    ]) {
      const response = await api(
        kit.t,
        kit.user.cookie,
        'PUT',
        '/api/notifications/settings',
        body,
      );
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json<{ fields: Record<string, string> }>().fields).toBeDefined();
    }
  });

  it('defaults to failures and reconnect-needed by email, successes off', async () => {
    const fresh = await signUp(kit.t, 'defaults@example.com');
    const response = await api(kit.t, fresh.cookie, 'GET', '/api/notifications/settings');
    expect(response.json()).toEqual({
      emailTypes: ['post_failed', 'account_reconnect_needed', 'token_refresh_failed'],
      digest: false,
    });
  });
});

describe('the live stream', () => {
  it('pushes a new notification as a `notification` event', async () => {
    const aborter = new AbortController();
    const response = await fetch(`${kit.t.url}/api/posts/events`, {
      headers: { cookie: kit.user.cookie },
      signal: aborter.signal,
    });
    const reader = response.body?.pipeThrough(new TextDecoderStream()).getReader();
    if (!reader) throw new Error('no body');
    await kit.t.context.notifications.notify({
      userId: kit.user.id,
      type: 'compilation_ready',
      dedupeKey: 'compilation_ready:live',
      data: { analysisId: 'live' },
    });
    let text = '';
    const found = (): Notification | undefined =>
      text
        .split('\n\n')
        .filter((block) => block.startsWith('event: notification\ndata: '))
        .map(
          (block) => JSON.parse(block.slice('event: notification\ndata: '.length)) as Notification,
        )
        .find((notification) => notification.type === 'compilation_ready');
    const deadline = Date.now() + 10_000;
    while (!found() && Date.now() < deadline) {
      const { value, done } = await reader.read();
      if (done) break;
      text += value;
    }
    aborter.abort();
    expect(found()).toMatchObject({ type: 'compilation_ready', read: false });
  });
});
