import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMailWorkers } from '../modules/mail/jobs.ts';
import {
  createPasswordResetMailer,
  RESET_MAILS_PER_ADDRESS_PER_HOUR,
} from '../modules/users/password-reset-mail.ts';
import { createTestApp, sessionCookie, testOrigin, type TestApp } from '../test-support/app.ts';
import { startSmtpTestServer, type SmtpTestServer } from '../test-support/smtp-test-server.ts';

let smtp: SmtpTestServer;
let t: TestApp;
beforeAll(async () => {
  smtp = await startSmtpTestServer();
  t = await createTestApp({ SMTP_URL: smtp.url, PASSWORD_RESET_RATE_LIMIT_PER_HOUR: '4' });
  // The real delivery path: the mail.send queue's worker sends through the SMTP server.
  await startMailWorkers(t.context.boss, t.context.mail, { logger: pino({ level: 'silent' }) });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

// Reset requests are rate-limited per client IP: each request comes from its own address unless a
// test is about that limit.
let lastAddress = 0;
const nextAddress = () => `203.0.113.${++lastAddress % 250}`;

function post(url: string, payload: unknown, cookie?: string, remoteAddress = nextAddress()) {
  return t.app.inject({
    method: 'POST',
    url,
    payload: payload as object,
    remoteAddress,
    headers: { origin: testOrigin, ...(cookie && { cookie }) },
  });
}

async function signUp(email: string, language: 'fr' | 'en' = 'fr'): Promise<string> {
  const response = await post('/api/auth/sign-up/email', {
    name: 'Zoé',
    email,
    password: 'old-secret',
    preferredLanguage: language,
  });
  expect(response.statusCode, response.body).toBe(200);
  return sessionCookie(response);
}

async function signIn(email: string, password: string) {
  return post('/api/auth/sign-in/email', { email, password });
}

const status = async (cookie: string) =>
  (await t.app.inject({ url: '/api/me', headers: { cookie } })).statusCode;

/** Asks for a reset and returns the token of the link that arrived by mail. */
async function requestResetLink(email: string): Promise<string> {
  const before = smtp.mailsTo(email).length;
  const response = await post('/api/auth/request-password-reset', { email });
  expect(response.statusCode, response.body).toBe(200);
  const mail = await smtp.waitForMail(email, { after: before });
  const link = new RegExp(`${testOrigin}/auth/reset\\?token=([A-Za-z0-9_-]+)`).exec(mail.text);
  expect(link, mail.text).not.toBeNull();
  return link![1]!;
}

const storedIdentifier = (token: string) =>
  createHash('sha256').update(`reset-password:${token}`).digest('base64url');

describe('forgot password', () => {
  it('mails a link in the account language that works once and ends every session', async () => {
    const laptop = await signUp('reset@example.com', 'en');
    const phone = sessionCookie(await signIn('reset@example.com', 'old-secret'));

    const answer = await post('/api/auth/request-password-reset', { email: 'Reset@Example.COM' });
    expect(answer.statusCode).toBe(200);
    const mail = await smtp.waitForMail('reset@example.com');
    expect(mail.subject).toBe('Reset your Cadence password');
    expect(mail.text).toContain('Hello Zoé,');
    expect(mail.html).toContain('<html lang="en">');
    const token = /token=([A-Za-z0-9_-]+)/.exec(mail.text)![1]!;
    expect(mail.html).toContain(`href="${testOrigin}/auth/reset?token=${token}"`);

    // At rest, only a hash of the token: the database does not hold a usable link.
    const { rows } = await sql`select identifier, value from verification`.execute(
      t.context.database.db,
    );
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(JSON.stringify(rows)).toContain(storedIdentifier(token));
    // Once sent, the outbox keeps no copy of the message either.
    const outbox = await t.context.database.db
      .selectFrom('mail_outbox')
      .selectAll()
      .where('to_address', '=', 'reset@example.com')
      .execute();
    expect(outbox).toHaveLength(1);
    expect(JSON.stringify(outbox)).not.toContain(token);

    const reset = await post('/api/auth/reset-password', { token, newPassword: 'new-secret' });
    expect(reset.statusCode, reset.body).toBe(200);
    expect(reset.cookies.filter((cookie) => cookie.value !== '')).toEqual([]);
    expect(await status(laptop)).toBe(401);
    expect(await status(phone)).toBe(401);
    expect((await signIn('reset@example.com', 'old-secret')).statusCode).toBe(401);
    expect((await signIn('reset@example.com', 'new-secret')).statusCode).toBe(200);

    const again = await post('/api/auth/reset-password', { token, newPassword: 'third-secret' });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({
      code: 'validation_failed',
      fields: { _: 'auth.errors.resetLinkInvalid' },
    });
    expect((await signIn('reset@example.com', 'new-secret')).statusCode).toBe(200);
  });

  it('answers an unknown address exactly as a known one, and mails nobody', async () => {
    await signUp('known@example.com');
    const known = await post('/api/auth/request-password-reset', { email: 'known@example.com' });
    const unknown = await post('/api/auth/request-password-reset', {
      email: 'nobody@example.com',
    });
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(unknown.body).toBe(known.body);
    expect(unknown.headers['content-type']).toBe(known.headers['content-type']);
    expect(unknown.cookies).toEqual(known.cookies);
    await smtp.waitForMail('known@example.com');
    const queued = await t.context.database.db
      .selectFrom('mail_outbox')
      .select('to_address')
      .where('to_address', '=', 'nobody@example.com')
      .execute();
    expect(queued).toEqual([]);
    expect(smtp.mailsTo('nobody@example.com')).toEqual([]);
  });

  it('refuses an expired link and changes nothing; a link lasts one hour', async () => {
    const cookie = await signUp('expired@example.com');
    const token = await requestResetLink('expired@example.com');
    const row = await sql<{ expiresAt: Date; createdAt: Date }>`
      select "expiresAt", "createdAt" from verification where identifier = ${storedIdentifier(token)}
    `.execute(t.context.database.db);
    const lifetime = row.rows[0]!.expiresAt.getTime() - row.rows[0]!.createdAt.getTime();
    expect(Math.abs(lifetime - 3600_000)).toBeLessThan(5_000);

    await sql`update verification set "expiresAt" = now() - interval '1 second'
      where identifier = ${storedIdentifier(token)}`.execute(t.context.database.db);
    const reset = await post('/api/auth/reset-password', { token, newPassword: 'new-secret' });
    expect(reset.statusCode).toBe(400);
    expect(reset.json()).toMatchObject({ fields: { _: 'auth.errors.resetLinkInvalid' } });
    expect(await status(cookie)).toBe(200);
    expect((await signIn('expired@example.com', 'old-secret')).statusCode).toBe(200);
  });

  it('refuses made-up tokens and bad passwords with the field at fault', async () => {
    const madeUp = await post('/api/auth/reset-password', {
      token: 'AbCdEfGhIjKlMnOpQrStUvWx',
      newPassword: 'new-secret',
    });
    expect(madeUp.statusCode).toBe(400);
    expect(madeUp.json()).toMatchObject({ fields: { _: 'auth.errors.resetLinkInvalid' } });
    for (const [body, fields] of [
      [{ token: 'x', newPassword: 'new-secret' }, { token: 'auth.errors.resetLinkInvalid' }],
      [
        { token: '../../etc/passwd', newPassword: 'new-secret' },
        { token: 'auth.errors.resetLinkInvalid' },
      ],
      [
        { token: 'AbCdEfGhIjKlMnOpQrStUvWx', newPassword: '12345' },
        { newPassword: 'auth.errors.weakPassword' },
      ],
      [{ token: 'AbCdEfGhIjKlMnOpQrStUvWx' }, { newPassword: 'auth.errors.fillAllFields' }],
      [
        { token: 'AbCdEfGhIjKlMnOpQrStUvWx', newPassword: 'new-secret', callbackURL: '/x' },
        { _: 'errors.invalid_value' },
      ],
    ] as const) {
      const response = await post('/api/auth/reset-password', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json(), JSON.stringify(body)).toMatchObject({ fields });
    }
    const badEmail = await post('/api/auth/request-password-reset', { email: 'not-an-email' });
    expect(badEmail.json()).toMatchObject({ fields: { email: 'auth.errors.invalidEmail' } });
    // A redirect target is never taken from the request.
    const redirect = await post('/api/auth/request-password-reset', {
      email: 'known@example.com',
      redirectTo: 'https://evil.example',
    });
    expect(redirect.statusCode).toBe(400);
  });

  it('limits requests per client IP, asking and resetting counted apart', async () => {
    const address = '192.0.2.77';
    for (let attempt = 0; attempt < 4; attempt++) {
      const response = await post(
        '/api/auth/request-password-reset',
        { email: `limit-${attempt}@example.com` },
        undefined,
        address,
      );
      expect(response.statusCode).toBe(200);
    }
    const refused = await post(
      '/api/auth/request-password-reset',
      { email: 'limit-x@example.com' },
      undefined,
      address,
    );
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({
      code: 'rate_limited',
      fields: { _: 'auth.errors.tooManyResets' },
    });
    const reset = await post(
      '/api/auth/reset-password',
      { token: 'AbCdEfGhIjKlMnOpQrStUvWx', newPassword: 'new-secret' },
      undefined,
      address,
    );
    expect(reset.statusCode).toBe(400);
    expect(
      (await post('/api/auth/request-password-reset', { email: 'limit-x@example.com' })).statusCode,
    ).toBe(200);
  });

  it('mails one address at most 3 reset links an hour, whoever asks', async () => {
    const send = createPasswordResetMailer({ mail: t.context.mail, publicUrl: testOrigin });
    await signUp('flooded@example.com');
    const { id } = await t.context.database.db
      .selectFrom('user')
      .select('id')
      .where('email', '=', 'flooded@example.com')
      .executeTakeFirstOrThrow();
    const user = {
      id,
      email: 'flooded@example.com',
      name: 'Zoé',
      preferredLanguage: 'fr' as const,
    };
    for (let request = 0; request < RESET_MAILS_PER_ADDRESS_PER_HOUR + 2; request++) {
      await send({ user, token: `token-number-${request}-abcdefgh` });
    }
    const rows = await t.context.database.db
      .selectFrom('mail_outbox')
      .select('id')
      .where('to_address', '=', 'flooded@example.com')
      .execute();
    expect(rows).toHaveLength(RESET_MAILS_PER_ADDRESS_PER_HOUR);
  });
});

describe('changing the password', () => {
  it('needs the current password, then ends every other session and keeps this one', async () => {
    const laptop = await signUp('change@example.com');
    const phone = sessionCookie(await signIn('change@example.com', 'old-secret'));

    const wrong = await post(
      '/api/auth/change-password',
      { currentPassword: 'not-it', newPassword: 'new-secret' },
      laptop,
    );
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({
      code: 'validation_failed',
      fields: { currentPassword: 'auth.errors.wrongCurrentPassword' },
    });
    expect(await status(phone)).toBe(200);

    // Keeping the other sessions is not an option the API offers.
    const keepOthers = await post(
      '/api/auth/change-password',
      { currentPassword: 'old-secret', newPassword: 'new-secret', revokeOtherSessions: false },
      laptop,
    );
    expect(keepOthers.statusCode).toBe(400);
    const signedOut = await post('/api/auth/change-password', {
      currentPassword: 'old-secret',
      newPassword: 'new-secret',
    });
    expect(signedOut.statusCode).toBe(401);

    const changed = await post(
      '/api/auth/change-password',
      { currentPassword: 'old-secret', newPassword: 'new-secret' },
      laptop,
    );
    expect(changed.statusCode, changed.body).toBe(200);
    const renewed = sessionCookie(changed);
    expect(await status(renewed)).toBe(200);
    expect(await status(phone)).toBe(401);
    expect(await status(laptop)).toBe(401);
    expect((await signIn('change@example.com', 'old-secret')).statusCode).toBe(401);
    expect((await signIn('change@example.com', 'new-secret')).statusCode).toBe(200);
  });
});

describe('signing out everywhere else', () => {
  it('ends every session but this one', async () => {
    const laptop = await signUp('everywhere@example.com');
    const phone = sessionCookie(await signIn('everywhere@example.com', 'old-secret'));
    const tablet = sessionCookie(await signIn('everywhere@example.com', 'old-secret'));
    const stranger = await signUp('stranger-sessions@example.com');

    const listed = await t.app.inject({
      url: '/api/auth/list-sessions',
      headers: { cookie: laptop },
    });
    expect(listed.json<unknown[]>()).toHaveLength(3);

    const revoked = await post('/api/auth/revoke-other-sessions', {}, laptop);
    expect(revoked.statusCode).toBe(200);
    expect(await status(laptop)).toBe(200);
    expect(await status(phone)).toBe(401);
    expect(await status(tablet)).toBe(401);
    expect(await status(stranger)).toBe(200);
    const after = await t.app.inject({
      url: '/api/auth/list-sessions',
      headers: { cookie: laptop },
    });
    expect(after.json<unknown[]>()).toHaveLength(1);
  });
});
