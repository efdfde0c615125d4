import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  sessionCookie,
  signUpViaApi,
  testOrigin,
  type TestApp,
} from '../test-support/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ LOGIN_RATE_LIMIT_PER_MINUTE: '5' });
});
afterAll(() => t.close());

function post(url: string, payload: unknown, cookie?: string, remoteAddress = '127.0.0.1') {
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
    await signUpViaApi(t.app, { email: 'taken@example.com' });
    const taken = await post('/api/auth/sign-up/email', {
      name: 'B',
      email: 'taken@example.com',
      password: 'secret1',
    });
    expect(taken.statusCode).toBe(422);
    expect(taken.json()).toMatchObject({ code: 'USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL' });

    const invalid = await post('/api/auth/sign-up/email', {
      name: 'B',
      email: 'not-an-email',
      password: 'secret1',
    });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json()).toMatchObject({ code: 'VALIDATION_ERROR' });

    const short = await post('/api/auth/sign-up/email', {
      name: 'B',
      email: 'short@example.com',
      password: '12345',
    });
    expect(short.statusCode).toBe(400);
    expect(short.json()).toMatchObject({ code: 'PASSWORD_TOO_SHORT' });

    const missing = await post('/api/auth/sign-up/email', {
      email: 'x@example.com',
      password: 'secret1',
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ code: 'validation_failed' });

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
    await signUpViaApi(t.app, { email: 'login@example.com', password: 'right-password' });
    const wrong = await post('/api/auth/sign-in/email', {
      email: 'login@example.com',
      password: 'wrong-password',
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toMatchObject({ code: 'INVALID_EMAIL_OR_PASSWORD' });
    const unknown = await post('/api/auth/sign-in/email', {
      email: 'nobody@example.com',
      password: 'whatever',
    });
    expect(unknown.json()).toMatchObject({ code: 'INVALID_EMAIL_OR_PASSWORD' });

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
    const cookie = await signUpViaApi(t.app, { email: 'lang-switch@example.com' });
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
  it('grants and revokes Pro with the local admin token only', async () => {
    const cookie = await signUpViaApi(t.app, { email: 'pro@example.com' });
    const grant = (token: string, isPro: boolean) =>
      t.app.inject({
        method: 'POST',
        url: '/api/admin/pro',
        headers: { 'x-admin-token': token },
        payload: { email: 'pro@example.com', isPro },
      });

    expect((await grant('wrong-token', true)).statusCode).toBe(403);
    expect((await t.app.inject({ url: '/api/me', headers: { cookie } })).json()).toMatchObject({
      isPro: false,
    });

    expect((await grant(t.config.adminToken, true)).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/me', headers: { cookie } })).json()).toMatchObject({
      isPro: true,
    });
    expect((await grant(t.config.adminToken, false)).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/me', headers: { cookie } })).json()).toMatchObject({
      isPro: false,
    });

    const missing = await t.app.inject({
      method: 'POST',
      url: '/api/admin/pro',
      headers: { 'x-admin-token': t.config.adminToken },
      payload: { email: 'ghost@example.com', isPro: true },
    });
    expect(missing.statusCode).toBe(404);
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
