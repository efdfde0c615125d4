import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, sessionCookie, type TestApp } from '../../test-support/app.ts';
import { startSmtpTestServer, type SmtpTestServer } from '../../test-support/smtp-test-server.ts';
import { startMailWorkers } from '../mail/jobs.ts';
import { api, signUp, type TestUser } from '../schedules/test-kit.ts';

let smtp: SmtpTestServer;
let t: TestApp;

beforeAll(async () => {
  smtp = await startSmtpTestServer();
  t = await createTestApp({
    SMTP_URL: smtp.url,
    MAIL_FROM: 'Cadence <no-reply@cadence.test>',
    REQUIRE_EMAIL_VERIFICATION: 'true',
  });
  await startMailWorkers(t.context.boss, t.context.mail, { logger: pino({ level: 'silent' }) });
}, 60_000);
afterAll(async () => {
  await t.close();
  await smtp.close();
});

/** The token of the first link in a mail to `path` (e.g. '/verify-email'). */
function tokenIn(text: string, path: string): string {
  const match = new RegExp(`${path}\\?token=([^\\s&]+)`).exec(text);
  if (!match?.[1]) throw new Error(`no ${path} link in: ${text}`);
  return decodeURIComponent(match[1]);
}

const fieldsOf = (response: { json: <TBody>() => TBody }) =>
  response.json<{ fields?: Record<string, string> }>().fields;

async function me(user: TestUser) {
  const response = await api(t, user.cookie, 'GET', '/api/me');
  expect(response.statusCode).toBe(200);
  return response.json<{ email: string; emailVerified: boolean; pendingEmail: string | null }>();
}

const PUBLISHING = [
  '/api/schedules',
  '/api/schedules/queue',
  '/api/drafts/00000000-0000-4000-8000-000000000000/schedule',
  '/api/posts/00000000-0000-4000-8000-000000000000/retry',
];

describe('REQUIRE_EMAIL_VERIFICATION', () => {
  let vera: TestUser;

  it('mails a confirmation link at sign-up and refuses publishing until it is opened', async () => {
    vera = await signUp(t, 'vera-verify@example.com');
    const mail = await smtp.waitForMail(vera.email);
    expect(mail.subject).toBe('Confirmez votre adresse email Cadence');
    expect((await me(vera)).emailVerified).toBe(false);
    for (const url of PUBLISHING) {
      const refused = await api(t, vera.cookie, 'POST', url, {});
      expect(refused.statusCode, url).toBe(403);
      expect(fieldsOf(refused)?._).toBe('settings.errors.emailNotVerified');
    }

    // The banner's 'resend': a few per hour per address, then a translated 429.
    for (let sent = 2; sent <= 3; sent++) {
      const resend = await api(t, vera.cookie, 'POST', '/api/me/verification-email');
      expect(resend.statusCode).toBe(204);
      await smtp.waitForMail(vera.email, { after: sent - 1 });
    }
    const limited = await api(t, vera.cookie, 'POST', '/api/me/verification-email');
    expect(limited.statusCode).toBe(429);
    expect(fieldsOf(limited)?._).toBe('settings.errors.tooManyVerificationMails');

    for (const token of ['', 'not-a-token', 'x'.repeat(201)]) {
      const bad = await t.app.inject({
        method: 'POST',
        url: '/api/me/verify-email',
        payload: { token },
      });
      expect(bad.statusCode, token).toBe(400);
      expect(fieldsOf(bad)?.token).toBe('settings.errors.emailLinkInvalid');
    }
    // Opened from any browser: the link's token is the proof.
    const opened = await t.app.inject({
      method: 'POST',
      url: '/api/me/verify-email',
      payload: { token: tokenIn(mail.text, '/verify-email') },
    });
    expect(opened.statusCode, opened.body).toBe(204);
    expect((await me(vera)).emailVerified).toBe(true);
    // Publishing is open: the same empty body now fails on its content, not on the address.
    const allowed = await api(t, vera.cookie, 'POST', '/api/schedules', {});
    expect(allowed.statusCode).toBe(400);
    expect(fieldsOf(allowed)?._).not.toBe('settings.errors.emailNotVerified');
  });
});

describe('changing my email address', () => {
  let alice: TestUser;
  let bob: TestUser;

  beforeAll(async () => {
    alice = await signUp(t, 'alice-old@example.com');
    bob = await signUp(t, 'bob-taken@example.com');
  });

  it('refuses a wrong password, a bad or unchanged address, with translated errors', async () => {
    const cases: [object, string, string][] = [
      [
        { newEmail: 'alice-new@example.com', password: 'wrong' },
        'password',
        'auth.errors.wrongCurrentPassword',
      ],
      [{ newEmail: 'not an email', password: 'secret123' }, 'newEmail', 'auth.errors.invalidEmail'],
      [
        { newEmail: ' Alice-Old@Example.com ', password: 'secret123' },
        'newEmail',
        'settings.errors.sameEmail',
      ],
      [{ password: 'secret123' }, 'newEmail', 'auth.errors.fillAllFields'],
    ];
    for (const [body, field, key] of cases) {
      const response = await api(t, alice.cookie, 'POST', '/api/me/email', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(fieldsOf(response)?.[field], JSON.stringify(body)).toBe(key);
    }
    expect(await me(alice)).toMatchObject({ email: alice.email, pendingEmail: null });
  });

  it('answers the same whether or not the new address is taken, and mails only a free one', async () => {
    const taken = await api(t, alice.cookie, 'POST', '/api/me/email', {
      newEmail: bob.email,
      password: 'secret123',
    });
    const free = await api(t, bob.cookie, 'POST', '/api/me/email', {
      newEmail: 'bob-new@example.com',
      password: 'secret123',
    });
    expect(taken.statusCode).toBe(200);
    expect(free.statusCode).toBe(200);
    expect(Object.keys(taken.json<object>()).sort()).toEqual(
      Object.keys(free.json<object>()).sort(),
    );
    expect(taken.json()).toMatchObject({ email: alice.email, pendingEmail: bob.email });
    expect(free.json()).toMatchObject({ email: bob.email, pendingEmail: 'bob-new@example.com' });
    await smtp.waitForMail('bob-new@example.com');
    // Bob's address got its sign-up confirmation only (REQUIRE_EMAIL_VERIFICATION), no link.
    expect(smtp.mailsTo(bob.email).map((mail) => mail.subject)).toEqual([
      'Confirmez votre adresse email Cadence',
    ]);
  });

  it('changes the address when the link sent to it is opened, once; the old address is told', async () => {
    const asked = await api(t, alice.cookie, 'POST', '/api/me/email', {
      newEmail: 'Alice-New@Example.com',
      password: 'secret123',
    });
    expect(asked.statusCode, asked.body).toBe(200);
    const link = await smtp.waitForMail('alice-new@example.com');
    expect(link.subject).toBe('Confirmez votre nouvelle adresse email Cadence');
    const token = tokenIn(link.text, '/settings/email');
    // Nothing changes before the link is opened.
    expect(await me(alice)).toMatchObject({
      email: alice.email,
      pendingEmail: 'alice-new@example.com',
    });

    const confirmed = await t.app.inject({
      method: 'POST',
      url: '/api/me/email/confirm',
      payload: { token },
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json()).toEqual({ email: 'alice-new@example.com' });
    expect(await me(alice)).toMatchObject({
      email: 'alice-new@example.com',
      emailVerified: true,
      pendingEmail: null,
    });
    // After her sign-up confirmation mail (REQUIRE_EMAIL_VERIFICATION).
    const notice = await smtp.waitForMail(alice.email, { after: 1 });
    expect(notice.subject).toBe('L’adresse email de votre compte Cadence a changé');
    expect(notice.text).toContain('alice-new@example.com');

    const reused = await t.app.inject({
      method: 'POST',
      url: '/api/me/email/confirm',
      payload: { token },
    });
    expect(reused.statusCode).toBe(400);
    expect(fieldsOf(reused)?.token).toBe('settings.errors.emailLinkInvalid');

    // The new address signs in; the old one no longer does.
    const signIn = (email: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/sign-in/email',
        headers: { origin: t.url },
        payload: { email, password: 'secret123' },
      });
    const fresh = await signIn('alice-new@example.com');
    expect(fresh.statusCode).toBe(200);
    expect(sessionCookie(fresh)).toBeTruthy();
    expect((await signIn(alice.email)).statusCode).toBe(401);
  });

  it('does not hand a taken address over even if its link were opened', async () => {
    // Carol asks for a free address, then someone signs up with it before she opens the link.
    const carol = await signUp(t, 'carol@example.com');
    await api(t, carol.cookie, 'POST', '/api/me/email', {
      newEmail: 'contested@example.com',
      password: 'secret123',
    });
    const link = await smtp.waitForMail('contested@example.com');
    await signUp(t, 'contested@example.com');
    const confirmed = await t.app.inject({
      method: 'POST',
      url: '/api/me/email/confirm',
      payload: { token: tokenIn(link.text, '/settings/email') },
    });
    expect(confirmed.statusCode).toBe(400);
    expect((await me(carol)).email).toBe('carol@example.com');
  });

  it('gives an address to one of two people whose links to it are opened at the same moment', async () => {
    const [dora, eve] = await Promise.all([
      signUp(t, 'dora@example.com'),
      signUp(t, 'eve@example.com'),
    ]);
    for (const person of [dora, eve]) {
      const asked = await api(t, person.cookie, 'POST', '/api/me/email', {
        newEmail: 'raced@example.com',
        password: 'secret123',
      });
      expect(asked.statusCode).toBe(200);
    }
    const first = await smtp.waitForMail('raced@example.com');
    const second = await smtp.waitForMail('raced@example.com', { after: 1 });
    const confirm = (token: string) =>
      t.app.inject({ method: 'POST', url: '/api/me/email/confirm', payload: { token } });
    const answers = await Promise.all(
      [first, second].map((mail) => confirm(tokenIn(mail.text, '/settings/email'))),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 400]);
    const refused = answers.find((answer) => answer.statusCode === 400)!;
    expect(fieldsOf(refused)?.token).toBe('settings.errors.emailLinkInvalid');
    const emails = [(await me(dora)).email, (await me(eve)).email].sort();
    expect(emails).toContain('raced@example.com');
    expect(emails.filter((email) => email === 'raced@example.com')).toHaveLength(1);
  });
});
