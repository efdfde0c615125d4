import { statSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  adminSocketPath,
  callAdminSocket,
  startAdminSocket,
} from '../modules/admin/admin-socket.ts';
import { createTestApp, sessionCookie, testOrigin, type TestApp } from '../test-support/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ LOGIN_RATE_LIMIT_PER_MINUTE: '5', SIGNUP_RATE_LIMIT_PER_HOUR: '5' });
});
afterAll(() => t.close());

/** A new account (from its own client address); returns its session cookie. */
async function signUp(email: string, password = 'secret123'): Promise<string> {
  const response = await post('/api/auth/sign-up/email', { name: 'Test User', email, password });
  expect(response.statusCode, response.body).toBe(200);
  return sessionCookie(response);
}

// Sign-ups and sign-ins are rate-limited per client IP: each request comes from its own address
// unless a test is about that limit.
let lastAddress = 0;
const nextAddress = () => `198.51.100.${++lastAddress % 250}`;

function post(url: string, payload: unknown, cookie?: string, remoteAddress = nextAddress()) {
  return t.app.inject({
    method: 'POST',
    url,
    payload: payload as object,
    remoteAddress,
    headers: { origin: testOrigin, ...(cookie && { cookie }) },
  });
}

describe('sign-up and sessions', () => {
  it('creates a non-Pro user with the chosen language and a 7-day httpOnly SameSite session cookie', async () => {
    const response = await post('/api/auth/sign-up/email', {
      name: 'Ana',
      email: 'Ana@Example.com',
      password: 'secret1',
      preferredLanguage: 'en',
    });
    expect(response.statusCode).toBe(200);
    const cookie = response.cookies.find((c) => c.name === 'cadence.session_token');
    expect(cookie).toMatchObject({
      httpOnly: true,
      sameSite: 'Lax',
      path: '/',
      maxAge: 7 * 24 * 60 * 60,
    });

    const me = await t.app.inject({ url: '/api/me', headers: { cookie: sessionCookie(response) } });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({
      name: 'Ana',
      email: 'ana@example.com',
      isPro: false,
      preferredLanguage: 'en',
    });
    expect(Date.parse(me.json<{ createdAt: string }>().createdAt)).not.toBeNaN();
  });

  it('refuses an email already in use, an invalid email, a short password and missing fields', async () => {
    await signUp('taken@example.com');
    const taken = await post('/api/auth/sign-up/email', {
      name: 'B',
      email: 'taken@example.com',
      password: 'secret1',
    });
    expect(taken.statusCode).toBe(422);
    // better-auth's own refusals come in the API's shape, with the spec's message key.
    expect(taken.json()).toMatchObject({
      code: 'validation_failed',
      fields: { _: 'auth.errors.emailInUse' },
    });

    const invalid = await post('/api/auth/sign-up/email', {
      name: 'B',
      email: 'not-an-email',
      password: 'secret1',
    });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json()).toMatchObject({
      code: 'validation_failed',
      fields: { email: 'auth.errors.invalidEmail' },
    });

    const short = await post('/api/auth/sign-up/email', {
      name: 'B',
      email: 'short@example.com',
      password: '12345',
    });
    expect(short.statusCode).toBe(400);
    expect(short.json()).toMatchObject({
      code: 'validation_failed',
      fields: { password: 'auth.errors.weakPassword' },
    });

    const missing = await post('/api/auth/sign-up/email', {
      email: 'x@example.com',
      password: 'secret1',
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({
      code: 'validation_failed',
      fields: { name: 'auth.errors.fillAllFields' },
    });

    const badLanguage = await post('/api/auth/sign-up/email', {
      name: 'B',
      email: 'lang@example.com',
      password: 'secret1',
      preferredLanguage: 'de',
    });
    expect(badLanguage.statusCode).toBe(400);
    const nobody = await post('/api/auth/sign-in/email', {
      email: 'lang@example.com',
      password: 'secret1',
    });
    expect(nobody.statusCode).toBe(401);
  });

  it('logs in with the right password only, and logout ends the session on the server', async () => {
    await signUp('login@example.com', 'right-password');
    const wrong = await post('/api/auth/sign-in/email', {
      email: 'login@example.com',
      password: 'wrong-password',
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toMatchObject({
      code: 'unauthenticated',
      fields: { _: 'auth.errors.wrongCredentials' },
    });
    const unknown = await post('/api/auth/sign-in/email', {
      email: 'nobody@example.com',
      password: 'whatever',
    });
    expect(unknown.json()).toMatchObject({ fields: { _: 'auth.errors.wrongCredentials' } });

    const ok = await post('/api/auth/sign-in/email', {
      email: 'login@example.com',
      password: 'right-password',
    });
    expect(ok.statusCode).toBe(200);
    const cookie = sessionCookie(ok);
    expect((await t.app.inject({ url: '/api/me', headers: { cookie } })).statusCode).toBe(200);

    const out = await post('/api/auth/sign-out', {}, cookie);
    expect(out.statusCode).toBe(200);
    // The old cookie, replayed, no longer opens a session: it was deleted server-side.
    const replay = await t.app.inject({ url: '/api/me', headers: { cookie } });
    expect(replay.statusCode).toBe(401);
    expect(replay.json()).toMatchObject({ code: 'unauthenticated' });
  });

  it('rate-limits login attempts per client', async () => {
    const attempts = [];
    for (let i = 0; i < 6; i++) {
      attempts.push(
        await post(
          '/api/auth/sign-in/email',
          { email: 'brute@example.com', password: `guess-${i}` },
          undefined,
          '203.0.113.7',
        ),
      );
    }
    // Another client is not affected.
    const other = await post(
      '/api/auth/sign-in/email',
      { email: 'brute@example.com', password: 'guess' },
      undefined,
      '203.0.113.8',
    );
    expect(other.statusCode).toBe(401);
    expect(attempts.slice(0, 5).map((r) => r.statusCode)).toEqual([401, 401, 401, 401, 401]);
    expect(attempts[5]?.statusCode).toBe(429);
    expect(attempts[5]?.json()).toMatchObject({ code: 'rate_limited' });
  });
});

describe('/api/me', () => {
  it('is 401 when signed out', async () => {
    const response = await t.app.inject({ url: '/api/me' });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ code: 'unauthenticated', message: 'Sign in first' });
  });

  it('stores the language and refuses an unknown one without changing anything', async () => {
    const cookie = await signUp('lang-switch@example.com');
    const patch = (payload: unknown) =>
      t.app.inject({
        method: 'PATCH',
        url: '/api/me',
        payload: payload as object,
        headers: { cookie, origin: testOrigin },
      });
    expect((await patch({ preferredLanguage: 'en' })).json()).toMatchObject({
      preferredLanguage: 'en',
    });
    const bad = await patch({ preferredLanguage: 'klingon' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({
      code: 'validation_failed',
      fields: { preferredLanguage: 'errors.invalid_value' },
    });
    expect((await patch({ isPro: true, preferredLanguage: 'fr' })).statusCode).toBe(400);
    const me = await t.app.inject({ url: '/api/me', headers: { cookie } });
    expect(me.json()).toMatchObject({ preferredLanguage: 'en', isPro: false });
  });
});

describe('admin Pro switch', () => {
  // `npm run admin` reaches the server through DATA_DIR/admin.sock; the public port has no such route.
  it('grants and revokes Pro with the local admin token only', async () => {
    const cookie = await signUp('pro@example.com');
    const socket = await startAdminSocket({
      dataDir: t.config.dataDir,
      users: t.context.users,
      adminToken: t.config.adminToken,
      logger: t.app.log,
    });
    try {
      expect(socket).not.toBeNull();
      expect(statSync(adminSocketPath(t.config.dataDir)).mode & 0o777).toBe(0o600);
      const grant = (adminToken: string, isPro: boolean, email = 'pro@example.com') =>
        callAdminSocket(t.config.dataDir, {
          path: '/api/admin/pro',
          adminToken,
          body: { email, isPro },
        });
      const me = async () => (await t.app.inject({ url: '/api/me', headers: { cookie } })).json();

      expect(await grant('wrong-token', true)).toMatchObject({ kind: 'answered', status: 403 });
      expect(await me()).toMatchObject({ isPro: false });

      expect(await grant(t.config.adminToken, true)).toMatchObject({ status: 200 });
      expect(await me()).toMatchObject({ isPro: true });
      expect(await grant(t.config.adminToken, false)).toMatchObject({ status: 200 });
      expect(await me()).toMatchObject({ isPro: false });

      expect(await grant(t.config.adminToken, true, 'ghost@example.com')).toMatchObject({
        status: 404,
        body: { message: 'No user with email ghost@example.com' },
      });
    } finally {
      await socket?.close();
    }
    expect(
      await callAdminSocket(t.config.dataDir, {
        path: '/api/admin/pro',
        adminToken: t.config.adminToken,
        body: {},
      }),
    ).toMatchObject({ kind: 'unreachable' });
  });
});

describe('HTTP hygiene', () => {
  it('answers health with the database kind', async () => {
    const response = await t.app.inject({ url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      status: 'ok',
      database: {
        kind: process.env.TEST_DATABASE === 'postgres' ? 'postgres' : 'pglite',
        ok: true,
      },
    });
  });

  it('sends security headers with a strict CSP', async () => {
    const response = await t.app.inject({ url: '/api/health' });
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  it('answers malformed bodies and unknown API routes with 4xx JSON, never 5xx', async () => {
    const badJson = await t.app.inject({
      method: 'PATCH',
      url: '/api/me',
      headers: { 'content-type': 'application/json' },
      payload: '{"preferredLanguage":',
    });
    expect(badJson.statusCode).toBe(400);
    const tooBig = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      headers: { 'content-type': 'application/json', origin: testOrigin },
      payload: JSON.stringify({ email: 'a'.repeat(2 * 1024 * 1024) }),
    });
    expect(tooBig.statusCode).toBe(413);
    const unknown = await t.app.inject({ url: '/api/nothing-here' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'not_found' });
    const wrongType = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      headers: { 'content-type': 'text/plain', origin: testOrigin },
      payload: 'hello',
    });
    expect(wrongType.statusCode).toBeGreaterThanOrEqual(400);
    expect(wrongType.statusCode).toBeLessThan(500);
  });
});

describe('every better-auth route validates with the shared schemas', () => {
  async function me(cookie: string) {
    return (await t.app.inject({ url: '/api/me', headers: { cookie } })).json<{
      name: string;
      preferredLanguage: string;
    }>();
  }

  // Regression: `{"preferredLanguage":"xx"}` and `{"name":null}` reached the database and
  // answered 500; a 100,000-character name and a `javascript:` avatar were stored.
  it('refuses update-user input sign-up would refuse, with a field key, and changes nothing', async () => {
    const cookie = await signUp('profile@example.com');
    const cases: [unknown, Record<string, string>][] = [
      [{ preferredLanguage: 'xx' }, { preferredLanguage: 'errors.invalid_value' }],
      [{ name: null }, { name: 'errors.invalid_value' }],
      [{ name: 'x'.repeat(100_000) }, { name: 'auth.errors.nameTooLong' }],
      [{ name: '   ' }, { name: 'auth.errors.fillAllFields' }],
      [{ image: 'javascript:alert(1)' }, { _: 'errors.invalid_value' }],
      [{ isPro: true }, { _: 'errors.invalid_value' }],
      [{}, { _: 'errors.invalid_value' }],
      [[], { _: 'errors.invalid_value' }],
    ];
    for (const [payload, fields] of cases) {
      const response = await post('/api/auth/update-user', payload, cookie);
      expect(response.statusCode, JSON.stringify(payload).slice(0, 60)).toBe(400);
      expect(response.json()).toMatchObject({ code: 'validation_failed', fields });
    }
    expect(await me(cookie)).toMatchObject({ name: 'Test User', preferredLanguage: 'fr' });
    const image = await t.context.database.db
      .selectFrom('user')
      .select('image')
      .where('email', '=', 'profile@example.com')
      .executeTakeFirstOrThrow();
    expect(image.image).toBeNull();

    const ok = await post(
      '/api/auth/update-user',
      { name: '  Ana B ', preferredLanguage: 'en' },
      cookie,
    );
    expect(ok.statusCode).toBe(200);
    expect(await me(cookie)).toMatchObject({ name: 'Ana B', preferredLanguage: 'en' });
  });

  it('applies the sign-up limits to sign-up, sign-in and change-password', async () => {
    const longName = await post('/api/auth/sign-up/email', {
      name: 'n'.repeat(101),
      email: 'long@example.com',
      password: 'secret123',
    });
    expect(longName.json()).toMatchObject({ fields: { name: 'auth.errors.nameTooLong' } });
    const avatar = await post('/api/auth/sign-up/email', {
      name: 'A',
      email: 'avatar@example.com',
      password: 'secret123',
      image: 'javascript:alert(1)',
    });
    expect(avatar.statusCode).toBe(400);
    const wrongTypes = await post('/api/auth/sign-in/email', { email: ['a'], password: {} });
    expect(wrongTypes.statusCode).toBe(400);
    expect(wrongTypes.json()).toMatchObject({
      fields: { email: 'errors.invalid_value', password: 'errors.invalid_value' },
    });

    const cookie = await signUp('password@example.com');
    const tooLong = await post(
      '/api/auth/change-password',
      { currentPassword: 'secret123', newPassword: 'p'.repeat(129) },
      cookie,
    );
    expect(tooLong.json()).toMatchObject({
      code: 'validation_failed',
      fields: { newPassword: 'auth.errors.passwordTooLong' },
    });
    const changed = await post(
      '/api/auth/change-password',
      { currentPassword: 'secret123', newPassword: 'new-secret' },
      cookie,
    );
    expect(changed.statusCode).toBe(200);
    const signIn = await post('/api/auth/sign-in/email', {
      email: 'password@example.com',
      password: 'new-secret',
    });
    expect(signIn.statusCode).toBe(200);
  });

  // Regression: 6,000 levels of nesting overflowed the stack in the auth forwarder (500).
  it('refuses deeply nested JSON on every route with a 400', async () => {
    const cookie = await signUp('nested@example.com');
    const deepArray = '['.repeat(6000) + ']'.repeat(6000);
    const deepObject = '{"a":'.repeat(6000) + '1' + '}'.repeat(6000);
    for (const url of ['/api/auth/sign-in/email', '/api/auth/update-user', '/api/schedules']) {
      for (const payload of [deepArray, deepObject, `{"name":${deepArray}}`]) {
        const response = await t.app.inject({
          method: 'POST',
          url,
          payload,
          remoteAddress: nextAddress(),
          headers: { cookie, origin: testOrigin, 'content-type': 'application/json' },
        });
        expect(response.statusCode, url).toBe(400);
        expect(response.json()).toMatchObject({
          code: 'validation_failed',
          fields: { _: 'errors.tooDeep' },
        });
      }
    }
    // Brackets inside strings are text, not nesting.
    const text = await post('/api/auth/update-user', { name: '['.repeat(90) }, cookie);
    expect(text.statusCode).toBe(200);
  });

  it('does not route the better-auth endpoints Cadence has no use for', async () => {
    const cookie = await signUp('closed@example.com');
    for (const path of [
      'update-session',
      'change-email',
      'sign-in/social',
      'link-social',
      'delete-user',
      'verify-password',
      // Reset links open the web app's /auth/reset, never better-auth's redirecting callback.
      'reset-password/some-token',
    ]) {
      const response = await post(`/api/auth/${path}`, {}, cookie);
      expect(response.statusCode, path).toBe(404);
    }
    const callback = await t.app.inject({
      url: '/api/auth/reset-password/some-token?callbackURL=https://evil.example',
    });
    expect(callback.statusCode).toBe(404);
  });
});

describe('the session token stays in the httpOnly cookie', () => {
  // Regression: sign-in, sign-up, get-session and list-sessions returned it in their JSON, where
  // any script on the page could read it.
  it('is in no JSON body, and the endpoints still answer what the browser needs', async () => {
    const signUpResponse = await post('/api/auth/sign-up/email', {
      name: 'Tok',
      email: 'token@example.com',
      password: 'secret123',
    });
    const signUpToken = signUpResponse.cookies.find((c) => c.name === 'cadence.session_token');
    const tokenOf = (value = '') => decodeURIComponent(value).split('.')[0] ?? '';
    expect(tokenOf(signUpToken?.value).length).toBeGreaterThan(10);
    expect(signUpResponse.body).not.toContain(tokenOf(signUpToken?.value));
    expect(signUpResponse.json()).toMatchObject({ user: { email: 'token@example.com' } });

    const signIn = await post('/api/auth/sign-in/email', {
      email: 'token@example.com',
      password: 'secret123',
    });
    expect(signIn.statusCode).toBe(200);
    const cookie = sessionCookie(signIn);
    const token = tokenOf(cookie.split('=')[1]);
    expect(signIn.body).not.toContain(token);
    expect(signIn.json()).toMatchObject({ user: { email: 'token@example.com' } });

    const session = await t.app.inject({ url: '/api/auth/get-session', headers: { cookie } });
    expect(session.statusCode).toBe(200);
    expect(session.body).not.toContain(token);
    expect(session.json()).toMatchObject({ user: { email: 'token@example.com' } });

    const sessions = await t.app.inject({ url: '/api/auth/list-sessions', headers: { cookie } });
    expect(sessions.statusCode).toBe(200);
    expect(sessions.body).not.toContain(token);
    expect(sessions.body).not.toContain(tokenOf(signUpToken?.value));
    expect(sessions.json<unknown[]>()).toHaveLength(2);
  });
});

describe('managing sessions without their tokens', () => {
  it('revokes one of my sessions by the id list-sessions shows, and only mine', async () => {
    await signUp('sessions@example.com');
    const signIn = async (email: string) =>
      sessionCookie(await post('/api/auth/sign-in/email', { email, password: 'secret123' }));
    const laptop = await signIn('sessions@example.com');
    const phone = await signIn('sessions@example.com');
    const sessionId = async (cookie: string) =>
      (await t.app.inject({ url: '/api/auth/get-session', headers: { cookie } })).json<{
        session: { id: string };
      }>().session.id;
    const listed = await t.app.inject({
      url: '/api/auth/list-sessions',
      headers: { cookie: laptop },
    });
    const ids = listed.json<{ id: string }[]>().map((session) => session.id);
    const phoneId = await sessionId(phone);
    expect(ids).toContain(phoneId);

    const stranger = await signUp('stranger@example.com');
    const notMine = await post('/api/auth/revoke-session', { id: phoneId }, stranger);
    expect(notMine.statusCode).toBe(404);
    expect((await post('/api/auth/revoke-session', { id: 'nope' }, laptop)).statusCode).toBe(404);
    expect((await post('/api/auth/revoke-session', { token: 'x' }, laptop)).statusCode).toBe(400);
    expect((await t.app.inject({ url: '/api/me', headers: { cookie: phone } })).statusCode).toBe(
      200,
    );

    const revoked = await post('/api/auth/revoke-session', { id: phoneId }, laptop);
    expect(revoked.statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/me', headers: { cookie: phone } })).statusCode).toBe(
      401,
    );
    expect((await t.app.inject({ url: '/api/me', headers: { cookie: laptop } })).statusCode).toBe(
      200,
    );
    const signedOut = await post('/api/auth/revoke-session', { id: phoneId });
    expect(signedOut.statusCode).toBe(401);
  });
});

describe('cross-site requests', () => {
  // Regression: state-changing routes accepted any Origin; only SameSite=Lax stood in the way.
  it('refuses a state-changing request from another site, whatever the route', async () => {
    const cookie = await signUp('csrf@example.com');
    const attempts = [
      { method: 'PATCH', url: '/api/me', payload: { preferredLanguage: 'en' } },
      { method: 'POST', url: '/api/auth/update-user', payload: { name: 'Pwned' } },
      { method: 'POST', url: '/api/auth/sign-out', payload: {} },
      { method: 'POST', url: '/api/accounts', payload: { username: 'victim' } },
      { method: 'POST', url: '/api/uploads', payload: undefined },
    ] as const;
    const foreign = [
      { origin: 'https://evil.example' },
      { origin: 'null' },
      { origin: `${testOrigin}.evil.example` },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site', origin: testOrigin },
    ];
    for (const attempt of attempts) {
      for (const headers of foreign) {
        const response = await t.app.inject({
          method: attempt.method,
          url: attempt.url,
          headers: { cookie, ...headers },
          ...(attempt.payload && { payload: attempt.payload }),
        });
        expect(response.statusCode, `${attempt.url} ${JSON.stringify(headers)}`).toBe(403);
        expect(response.json()).toMatchObject({
          code: 'forbidden',
          fields: { _: 'errors.crossSite' },
        });
      }
    }
    const profile = await t.app.inject({ url: '/api/me', headers: { cookie } });
    expect(profile.json()).toMatchObject({ name: 'Test User', preferredLanguage: 'fr' });
    const accounts = await t.app.inject({ url: '/api/accounts', headers: { cookie } });
    expect(accounts.body).not.toContain('victim');

    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      remoteAddress: nextAddress(),
      headers: { origin: 'https://evil.example' },
      payload: { email: 'csrf@example.com', password: 'secret123' },
    });
    expect(signIn.statusCode).toBe(403);
    expect(signIn.cookies).toHaveLength(0);
  });

  it('lets same-origin browsers, non-browser clients and cross-site reads through', async () => {
    const cookie = await signUp('same-origin@example.com');
    const patch = (headers: Record<string, string>) =>
      t.app.inject({
        method: 'PATCH',
        url: '/api/me',
        headers: { cookie, ...headers },
        payload: { preferredLanguage: 'en' },
      });
    expect((await patch({ origin: testOrigin, 'sec-fetch-site': 'same-origin' })).statusCode).toBe(
      200,
    );
    expect((await patch({})).statusCode).toBe(200);
    // The origin the request was addressed to is the same origin, whatever PUBLIC_URL says.
    expect(
      (await patch({ origin: 'http://127.0.0.1:3000', host: '127.0.0.1:3000' })).statusCode,
    ).toBe(200);
    const read = await t.app.inject({
      url: '/api/me',
      headers: { cookie, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    });
    expect(read.statusCode).toBe(200);
  });
});

describe('sign-up rate limit', () => {
  // Regression: 30 sign-ups in a row from one address were all accepted.
  it('limits sign-ups per client (SIGNUP_RATE_LIMIT_PER_HOUR), counted apart from logins', async () => {
    const from = '203.0.113.50';
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const response = await post(
        '/api/auth/sign-up/email',
        { name: 'Bot', email: `bot-${i}@example.com`, password: 'secret123' },
        undefined,
        from,
      );
      statuses.push(response.statusCode);
      if (response.statusCode === 429) {
        expect(response.json()).toMatchObject({
          code: 'rate_limited',
          fields: { _: 'auth.errors.tooManySignUps' },
        });
      }
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    const login = await post(
      '/api/auth/sign-in/email',
      { email: 'bot-0@example.com', password: 'secret123' },
      undefined,
      from,
    );
    expect(login.statusCode).toBe(200);
    const elsewhere = await post(
      '/api/auth/sign-up/email',
      { name: 'Human', email: 'human@example.com', password: 'secret123' },
      undefined,
      '203.0.113.51',
    );
    expect(elsewhere.statusCode).toBe(200);
  });
});

describe('logging', () => {
  // Regression: a body better-auth's router refused (wrong Content-Type, bad JSON for it) was
  // printed to the console as an ERROR, for every such request.
  it('does not report client mistakes at error level', async () => {
    await signUp('quiet@example.com');
    const consoleErrors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const wrong = await post('/api/auth/sign-in/email', {
        email: 'quiet@example.com',
        password: 'wrong-password',
      });
      expect(wrong.statusCode).toBe(401);
      const taken = await post('/api/auth/sign-up/email', {
        name: 'Q',
        email: 'quiet@example.com',
        password: 'secret123',
      });
      expect(taken.statusCode).toBe(422);
      for (const url of [
        '/api/auth/sign-in/email',
        '/api/auth/update-user',
        '/api/auth/sign-out',
      ]) {
        const wrongType = await t.app.inject({
          method: 'POST',
          url,
          remoteAddress: nextAddress(),
          headers: { origin: testOrigin, 'content-type': 'text/plain' },
          payload: 'email=quiet@example.com',
        });
        expect(wrongType.statusCode, url).toBeGreaterThanOrEqual(400);
        expect(wrongType.statusCode, url).toBeLessThan(500);
      }
      expect(consoleErrors.mock.calls).toEqual([]);
    } finally {
      consoleErrors.mockRestore();
    }
  });
});
