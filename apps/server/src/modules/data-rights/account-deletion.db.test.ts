import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpViaApi } from '../../test-support/app.ts';
import { startSmtpTestServer, type SmtpTestServer } from '../../test-support/smtp-test-server.ts';
import { startMailWorkers } from '../mail/jobs.ts';
import {
  addVideo,
  api,
  connectTikTok,
  createSchedule,
  scheduleBody,
  signUp,
  useScheduleTestApp,
  type TestUser,
} from '../schedules/test-kit.ts';

// The goodbye mail goes through a real SMTP server in this process (started before the app).
let smtp: SmtpTestServer;
beforeAll(async () => {
  smtp = await startSmtpTestServer();
});
afterAll(() => smtp.close());
const kit = useScheduleTestApp('cadence-deletion-', () => ({
  SMTP_URL: smtp.url,
  MAIL_FROM: 'Cadence <no-reply@cadence.test>',
}));
beforeAll(async () => {
  await startMailWorkers(kit.t.context.boss, kit.t.context.mail, {
    logger: pino({ level: 'silent' }),
  });
});

/**
 * Every row, in every table of the public schema (listed from information_schema, so a table
 * added later is covered without touching this test), whose text-like columns mention `needle`.
 */
async function rowsMentioning(needle: string): Promise<Record<string, number>> {
  const db = kit.t.context.database.db;
  const columns = await sql<{ table_name: string; column_name: string }>`
    select c.table_name, c.column_name
    from information_schema.columns c
    join information_schema.tables t
      on t.table_schema = c.table_schema and t.table_name = c.table_name
    where c.table_schema = 'public'
      and t.table_type = 'BASE TABLE'
      and c.data_type in ('text', 'character varying', 'uuid', 'json', 'jsonb', 'ARRAY')
  `.execute(db);
  const found: Record<string, number> = {};
  for (const { table_name, column_name } of columns.rows) {
    const result = await sql<{ count: string }>`
      select count(*) as count from ${sql.table(table_name)}
      where position(${needle} in ${sql.ref(column_name)}::text) > 0
    `.execute(db);
    const count = Number(result.rows[0]?.count ?? 0);
    if (count > 0) found[`${table_name}.${column_name}`] = count;
  }
  return found;
}

describe('deleting my account', () => {
  let alice: TestUser;
  let bob: TestUser;
  let aliceKeys: string[];
  beforeAll(async () => {
    alice = await signUp(kit.t, 'alice-deleted@example.com');
    bob = await signUp(kit.t, 'bob-stays@example.com');
    const account = await connectTikTok(kit.t, alice, 'alice_tiktok');
    const video = await addVideo(kit.t, alice, kit.dir, 'alice-clip');
    await createSchedule(
      kit.t,
      alice,
      scheduleBody(account, [video.mediaId], {
        publishType: 'scheduled',
        date: '2099-03-03',
        time: '10:00',
      }),
    );
    expect(
      (
        await api(kit.t, alice.cookie, 'POST', '/api/drafts', {
          accountId: account,
          mediaIds: [video.mediaId],
        })
      ).statusCode,
    ).toBe(201);
    await api(kit.t, alice.cookie, 'PUT', '/api/notifications/settings', {
      emailTypes: ['post_failed'],
      digest: true,
    });
    await kit.t.context.notifications.notify({
      userId: alice.id,
      type: 'story_ready',
      dedupeKey: 'story_ready:alice',
      data: { storyId: 'x' },
    });
    // A pending reset link: better-auth's verification row names her only in its value.
    await kit.t.app.inject({
      method: 'POST',
      url: '/api/auth/request-password-reset',
      headers: { origin: kit.t.url },
      payload: { email: alice.email, redirectTo: '/auth/reset' },
    });
    await connectTikTok(kit.t, bob, 'bob_tiktok');
    const media = await kit.t.context.database.db
      .selectFrom('media')
      .select(['storage_key', 'thumbnail_key'])
      .where('user_id', '=', alice.id)
      .execute();
    aliceKeys = media.flatMap((row) => [row.storage_key, row.thumbnail_key ?? '']).filter(Boolean);
  }, 60_000);

  it('refuses a wrong password with a translated 400 and deletes nothing', async () => {
    for (const body of [{ password: 'not-mine' }, { password: '' }, {}]) {
      const response = await api(kit.t, alice.cookie, 'POST', '/api/me/delete', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json<{ fields: Record<string, string> }>().fields.password).toMatch(
        /^auth\.errors\./,
      );
    }
    expect(Object.keys(await rowsMentioning(alice.id)).length).toBeGreaterThan(5);
    expect((await api(kit.t, alice.cookie, 'GET', '/api/me')).statusCode).toBe(200);
  });

  it('leaves nothing of me in any table or in storage, and nothing of others is touched', async () => {
    expect(aliceKeys.length).toBeGreaterThanOrEqual(2);
    for (const key of aliceKeys) expect(await kit.t.context.storage.stat(key)).not.toBeNull();

    const response = await api(kit.t, alice.cookie, 'POST', '/api/me/delete', {
      password: 'secret123',
    });
    expect(response.statusCode, response.body).toBe(204);

    // A goodbye in her language, to the address read before her rows went (regression: none).
    // (Her reset link of beforeAll may be mailed too: the goodbye is looked for by its subject.)
    const goodbyeSubject = 'Votre compte Cadence a été supprimé';
    await expect
      .poll(() => smtp.mailsTo(alice.email).map((mail) => mail.subject), { timeout: 10_000 })
      .toContain(goodbyeSubject);
    const goodbye = smtp.mailsTo(alice.email).find((mail) => mail.subject === goodbyeSubject)!;
    expect(goodbye.text).toContain('Votre compte Cadence et toutes ses données ont été supprimés');
    expect(goodbye.text).toContain("L'accès de Cadence à vos comptes TikTok a été révoqué");
    expect(goodbye.text).toContain('Bonjour Test User,');

    expect(await rowsMentioning(alice.id)).toEqual({});
    // The goodbye's outbox row goes once sent: nothing keeps her address.
    await expect.poll(() => rowsMentioning(alice.email), { timeout: 10_000 }).toEqual({});
    expect(await rowsMentioning('alice_tiktok')).toEqual({});
    for (const key of aliceKeys) expect(await kit.t.context.storage.stat(key)).toBeNull();
    // Not even an empty folder named after her (local storage).
    expect(existsSync(path.join(kit.t.config.dataDir, 'media', 'users', alice.id))).toBe(false);
    expect(
      readdirSync(kit.t.config.dataDir, { recursive: true }).filter((name) =>
        String(name).includes(alice.id),
      ),
    ).toEqual([]);

    expect((await api(kit.t, alice.cookie, 'GET', '/api/me')).statusCode).toBe(401);
    // The check finds what exists: Bob is all there.
    expect(Object.keys(await rowsMentioning(bob.id)).length).toBeGreaterThan(3);
    expect((await api(kit.t, bob.cookie, 'GET', '/api/accounts')).statusCode).toBe(200);
  });

  it('says goodbye in English to an English account', async () => {
    const email = 'eve-english@example.com';
    const cookie = await signUpViaApi(
      kit.t.app,
      { email, name: 'Eve', preferredLanguage: 'en' },
      kit.t.url,
    );
    const response = await api(kit.t, cookie, 'POST', '/api/me/delete', { password: 'secret123' });
    expect(response.statusCode, response.body).toBe(204);
    const goodbye = await smtp.waitForMail(email);
    expect(goodbye.subject).toBe('Your Cadence account was deleted');
    expect(goodbye.text).toContain('Hello Eve,');
    expect(goodbye.text).toContain("Cadence's access to your TikTok accounts was revoked");
    await expect.poll(() => rowsMentioning(email), { timeout: 10_000 }).toEqual({});
  });
});
