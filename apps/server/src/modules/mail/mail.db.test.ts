import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOSS_SCHEMA } from '../../jobs/boss.ts';
import { passwordResetMail } from '../../mail/templates.ts';
import { waitFor } from '../../../../../e2e/support/server.ts';
import { createTestApp, type TestApp } from '../../test-support/app.ts';
import { startSmtpTestServer, type SmtpTestServer } from '../../test-support/smtp-test-server.ts';
import { mailPurgeQueue, mailSendQueue, startMailWorkers } from './jobs.ts';
import { MailBusyError, type QueuedMail } from './service.ts';

let smtp: SmtpTestServer;
let t: TestApp;
beforeAll(async () => {
  smtp = await startSmtpTestServer();
  t = await createTestApp({ SMTP_URL: smtp.url, MAIL_FROM: 'Cadence <no-reply@cadence.test>' });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

let counter = 0;
function resetMail(to: string): QueuedMail {
  counter += 1;
  return {
    kind: 'password-reset',
    userId: null,
    to,
    language: 'fr',
    content: passwordResetMail('fr', {
      name: 'Zoé',
      link: `http://localhost:3000/auth/reset?token=secret-token-${counter}`,
      validForMinutes: 60,
    }),
  };
}

const row = (id: string) =>
  t.context.database.db
    .selectFrom('mail_outbox')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

describe('the outbox (deliveries driven by hand)', () => {
  it('keeps the message encrypted until it is sent, then erases it', async () => {
    const mail = resetMail('stored@example.com');
    const id = await t.context.mail.queue(mail);
    const queued = await row(id);
    expect(queued).toMatchObject({
      kind: 'password-reset',
      to_address: 'stored@example.com',
      language: 'fr',
      subject: 'Réinitialisez votre mot de passe Cadence',
      sent_at: null,
      attempts: 0,
    });
    expect(queued.content_enc).not.toContain('secret-token');
    expect(queued.content_enc).not.toContain('Bonjour');

    await expect(t.context.mail.deliver(id)).resolves.toBe('sent');
    const received = await smtp.waitForMail('stored@example.com');
    expect(received.text).toContain(mail.content.link);
    expect(received.messageId).toBe(`<${id}@localhost>`);
    const sent = await row(id);
    expect(sent.sent_at).toBeInstanceOf(Date);
    expect(sent.content_enc).toBeNull();
    expect(sent.attempts).toBe(1);
  });

  it('never sends a message twice: a repeated delivery finds it sent', async () => {
    const id = await t.context.mail.queue(resetMail('twice@example.com'));
    await expect(t.context.mail.deliver(id)).resolves.toBe('sent');
    await expect(t.context.mail.deliver(id)).resolves.toBe('already-sent');
    await smtp.waitForMail('twice@example.com');
    expect(smtp.mailsTo('twice@example.com')).toHaveLength(1);
    await expect(t.context.mail.deliver('no-such-message')).resolves.toBe('missing');
  });

  it('lets one of two simultaneous deliveries send; the other is told to come back later', async () => {
    const id = await t.context.mail.queue(resetMail('race@example.com'));
    const outcomes = await Promise.allSettled([
      t.context.mail.deliver(id),
      t.context.mail.deliver(id),
    ]);
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toEqual([
      { status: 'fulfilled', value: 'sent' },
    ]);
    const refused = outcomes.find((outcome) => outcome.status === 'rejected');
    expect(refused?.reason).toBeInstanceOf(MailBusyError);
    await smtp.waitForMail('race@example.com');
    await expect(t.context.mail.deliver(id)).resolves.toBe('already-sent');
    expect(smtp.mailsTo('race@example.com')).toHaveLength(1);
  });

  it('records a refused attempt and sends on the next one, once', async () => {
    const id = await t.context.mail.queue(resetMail('busy-server@example.com'));
    smtp.refuseNext(1);
    await expect(t.context.mail.deliver(id)).rejects.toThrow(/Try again later/);
    expect(await row(id)).toMatchObject({
      attempts: 1,
      sent_at: null,
      sending_since: null,
      last_error: expect.stringMatching(/Try again later/),
    });
    await expect(t.context.mail.deliver(id)).resolves.toBe('sent');
    await smtp.waitForMail('busy-server@example.com');
    expect(smtp.mailsTo('busy-server@example.com')).toHaveLength(1);
    expect(await row(id)).toMatchObject({ attempts: 2, last_error: null });
  });

  it('gives up for good after the last attempt: reason kept, content erased, nothing sent', async () => {
    const id = await t.context.mail.queue(resetMail('given-up@example.com'));
    await t.context.mail.giveUp(id, new Error('550 mailbox unavailable'));
    const failed = await row(id);
    expect(failed.failed_at).toBeInstanceOf(Date);
    expect(failed.content_enc).toBeNull();
    expect(failed.last_error).toBe('550 mailbox unavailable');
    await expect(t.context.mail.deliver(id)).resolves.toBe('given-up');
    expect(smtp.mailsTo('given-up@example.com')).toEqual([]);
  });

  it('gives up a message whose worker was killed on its last attempt, once pg-boss fails the job', async () => {
    const { db } = t.context.database;
    const id = await t.context.mail.queue(resetMail('killed-worker@example.com'));
    // Queued 11 minutes ago; the worker of its last attempt was killed mid-send (its lease ran out).
    await db
      .updateTable('mail_outbox')
      .set({
        created_at: sql<Date>`now() - interval '11 minutes'`,
        attempts: 3,
        sending_since: sql<Date>`now() - interval '4 minutes'`,
      })
      .where('id', '=', id)
      .execute();
    // Its job is still alive (pg-boss has not expired it yet): nothing happens.
    expect(await t.context.mail.failOrphaned(mailSendQueue.name)).toBe(0);
    expect(await row(id)).toMatchObject({ sent_at: null, failed_at: null });

    // pg-boss fails the expired job by timeout, without our give-up. Until now the message stayed
    // unsent forever, its content (here a password-reset link) kept for 30 days.
    await sql`update ${sql.table(`${BOSS_SCHEMA}.job`)} set state = 'failed'
      where name = ${mailSendQueue.name} and singleton_key = ${id}`.execute(db);
    expect(await t.context.mail.failOrphaned(mailSendQueue.name)).toBe(1);
    const failed = await row(id);
    expect(failed.failed_at).toBeInstanceOf(Date);
    expect(failed.content_enc).toBeNull();
    expect(failed.last_error).toBe('its job stopped without finishing');
    await expect(t.context.mail.deliver(id)).resolves.toBe('given-up');
    expect(await t.context.mail.failOrphaned(mailSendQueue.name)).toBe(0);
    expect(smtp.mailsTo('killed-worker@example.com')).toEqual([]);
  });

  it('counts recent messages of a kind per address (for per-address limits)', async () => {
    await t.context.mail.queue(resetMail('counted@example.com'));
    await t.context.mail.queue(resetMail('counted@example.com'));
    await expect(
      t.context.mail.countRecent('password-reset', 'counted@example.com', 3600),
    ).resolves.toBe(2);
    await expect(
      t.context.mail.countRecent('password-reset', 'other@example.com', 3600),
    ).resolves.toBe(0);
  });
});

describe('the mail.send queue', () => {
  beforeAll(async () => {
    await startMailWorkers(t.context.boss, t.context.mail, { logger: pino({ level: 'silent' }) });
  });

  it('delivers a queued message through the worker, exactly once', async () => {
    const mail = resetMail('queued@example.com');
    const id = await t.context.mail.queue(mail);
    const received = await smtp.waitForMail('queued@example.com');
    expect(received.subject).toBe('Réinitialisez votre mot de passe Cadence');
    expect(received.from).toBe('no-reply@cadence.test');
    expect(received.html).toContain(`href="${mail.content.link}"`);
    // The job may still be recording the outcome when the mail arrives.
    await waitFor(async () => (await row(id)).sent_at ?? undefined, { what: 'sent_at' });
    expect(smtp.mailsTo('queued@example.com')).toHaveLength(1);
  });

  it('gives up, at its periodic purge, a message no job will deliver any more', async () => {
    // Stored 11 minutes ago, and its job is gone (never queued: the queue was unreachable).
    const id = 'orphaned-by-its-job';
    await t.context.database.db
      .insertInto('mail_outbox')
      .values({
        id,
        user_id: null,
        kind: 'password-reset',
        to_address: 'no-job@example.com',
        language: 'en',
        subject: 'Reset your Cadence password',
        content_enc: 'encrypted content',
        created_at: sql<Date>`now() - interval '11 minutes'`,
      })
      .execute();
    await mailPurgeQueue.send(t.context.boss, {});
    const failedAt = await waitFor(async () => (await row(id)).failed_at ?? undefined, {
      what: 'failed_at',
    });
    expect(failedAt).toBeInstanceOf(Date);
    expect(await row(id)).toMatchObject({
      sent_at: null,
      content_enc: null,
      last_error: 'its job stopped without finishing',
    });
    expect(smtp.mailsTo('no-job@example.com')).toEqual([]);
  });
});

describe('without SMTP_URL', () => {
  let local: TestApp;
  beforeAll(async () => {
    local = await createTestApp();
  });
  afterAll(() => local.close());

  it('writes the message to DATA_DIR/outbox, which no URL serves', async () => {
    expect(local.config.mail.outboxDir).toBe(path.join(local.config.dataDir, 'outbox'));
    const mail = resetMail('local@example.com');
    const id = await local.context.mail.queue(mail);
    await expect(local.context.mail.deliver(id)).resolves.toBe('sent');
    const file = path.join(local.config.mail.outboxDir, `${id}.eml`);
    expect(readdirSync(local.config.mail.outboxDir)).toEqual([`${id}.eml`]);
    expect(readFileSync(file, 'utf8')).toContain('secret-token');

    for (const url of [
      `/outbox/${id}.eml`,
      `/data/outbox/${id}.eml`,
      `/../outbox/${id}.eml`,
      `/%2e%2e/outbox/${id}.eml`,
      `/assets/../../outbox/${id}.eml`,
      `/api/../outbox/${id}.eml`,
      `/outbox/`,
    ]) {
      const response = await local.app.inject({ url });
      expect(response.body, url).not.toContain('secret-token');
      expect(response.body, url).not.toContain('Bonjour');
      expect(response.body, url).not.toMatch(/Message-ID/i);
    }
  });
});
