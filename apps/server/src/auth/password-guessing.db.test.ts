// No route that takes a password lets anyone guess it at request speed. The routes are read from
// the API reference (every request body with a field named like a password), so a new one is held
// to the same rule: each gets wrong attempts until it answers 429, within a bound. Before, the
// routes that ask a signed-in person for their password again (delete the account, change the
// address, change the password) had no limit at all: 40 wrong guesses answered 40 × 400, and the
// right one then worked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, sessionCookie, testOrigin, type TestApp } from '../test-support/app.ts';
import { PASSWORD_FAILURES_ALLOWED } from './password-check.ts';

const PER_CLIENT_LIMIT = 4;
let t: TestApp;
let addressCount = 0;
/** A client address of its own for each route, so one route's limit never counts for another. */
const nextAddress = () => `198.51.100.${++addressCount}`;

beforeAll(async () => {
  t = await createTestApp({
    LOGIN_RATE_LIMIT_PER_MINUTE: String(PER_CLIENT_LIMIT),
    SIGNUP_RATE_LIMIT_PER_HOUR: String(PER_CLIENT_LIMIT),
    PASSWORD_RESET_RATE_LIMIT_PER_HOUR: String(PER_CLIENT_LIMIT),
  });
}, 60_000);
afterAll(() => t.close());

interface Operation {
  method: string;
  path: string;
}

/** Every operation of the API reference whose JSON body has a field named like a password. */
async function passwordOperations(): Promise<Operation[]> {
  const document = (await t.app.inject({ url: '/api/openapi.json' })).json<{
    paths: Record<
      string,
      Record<
        string,
        {
          requestBody?: {
            content?: Record<string, { schema?: { properties?: Record<string, unknown> } }>;
          };
        }
      >
    >;
  }>();
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const properties = operation.requestBody?.content?.['application/json']?.schema?.properties;
      if (Object.keys(properties ?? {}).some((name) => /password/i.test(name))) {
        operations.push({ method: method.toUpperCase(), path });
      }
    }
  }
  return operations;
}

let people = 0;
/** A signed-up person: the target of the guesses. */
async function person(): Promise<{ cookie: string; email: string }> {
  const email = `guessed-${++people}@example.com`;
  // From an address of its own: the sign-up limit is per client.
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/auth/sign-up/email',
    remoteAddress: nextAddress(),
    headers: { origin: testOrigin },
    payload: { name: 'Guessed', email, password: 'right-password-1' },
  });
  expect(response.statusCode, response.body).toBe(200);
  return { email, cookie: sessionCookie(response) };
}

/**
 * One wrong attempt at each route, as an attacker would make it: a body that passes validation
 * with a wrong password (or a made-up token, or yet another account), from the route's client.
 */
const attempts: Record<
  string,
  (target: { cookie: string; email: string }, index: number) => object
> = {
  'POST /api/auth/sign-in/email': (target, index) => ({
    email: target.email,
    password: `wrong-guess-${index}`,
  }),
  'POST /api/auth/sign-up/email': (_target, index) => ({
    name: 'Mass sign-up',
    email: `mass-${index}-${addressCount}@example.com`,
    password: `any-password-${index}`,
  }),
  'POST /api/auth/reset-password': (_target, index) => ({
    token: `MadeUpToken${String(index).padStart(13, '0')}`,
    newPassword: 'new-password-1',
  }),
  'POST /api/auth/change-password': (_target, index) => ({
    currentPassword: `wrong-guess-${index}`,
    newPassword: 'new-password-1',
  }),
  'POST /api/me/email': (_target, index) => ({
    newEmail: `elsewhere-${index}@example.com`,
    password: `wrong-guess-${index}`,
  }),
  'POST /api/me/delete': (_target, index) => ({ password: `wrong-guess-${index}` }),
};

describe('guessing a password', () => {
  it('is refused with a translated 429 on every route that takes one, soon', async () => {
    const operations = await passwordOperations();
    expect(operations.length).toBeGreaterThanOrEqual(6);
    const bound = Math.max(PER_CLIENT_LIMIT, PASSWORD_FAILURES_ALLOWED) + 1;
    for (const { method, path } of operations) {
      const name = `${method} ${path}`;
      const attempt = attempts[name];
      expect(attempt, `${name} takes a password: say how to guess it here`).toBeDefined();
      if (attempt === undefined) continue;
      const target = await person();
      const remoteAddress = nextAddress();
      const statuses: number[] = [];
      for (let index = 0; index < bound && !statuses.includes(429); index++) {
        const response = await t.app.inject({
          method: method as 'POST',
          url: path,
          remoteAddress,
          payload: attempt(target, index),
          headers: { origin: testOrigin, cookie: target.cookie },
        });
        statuses.push(response.statusCode);
        if (response.statusCode === 429) {
          expect(response.json(), name).toMatchObject({ code: 'rate_limited' });
        } else {
          // Every attempt before the limit is refused (or, for sign-up, makes an account).
          expect(response.statusCode, `${name}: ${response.body}`).toBeLessThan(500);
        }
      }
      expect(statuses, name).toContain(429);
    }
  });

  it('checks no more than the allowed wrong passwords when they are all sent at once', async () => {
    const target = await person();
    const statuses = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        t.app
          .inject({
            method: 'POST',
            url: '/api/me/delete',
            remoteAddress: nextAddress(),
            payload: { password: `wrong-at-once-${index}` },
            headers: { origin: testOrigin, cookie: target.cookie },
          })
          .then((response) => response.statusCode),
      ),
    );
    expect(statuses.filter((status) => status === 400)).toHaveLength(PASSWORD_FAILURES_ALLOWED);
    expect(statuses.filter((status) => status === 429)).toHaveLength(
      20 - PASSWORD_FAILURES_ALLOWED,
    );
  });

  it('once limited, refuses the right password too, names the field, and changes nothing', async () => {
    const target = await person();
    const send = (url: string, payload: object) =>
      t.app.inject({
        method: 'POST',
        url,
        remoteAddress: nextAddress(),
        payload,
        headers: { origin: testOrigin, cookie: target.cookie },
      });
    for (let index = 0; index < PASSWORD_FAILURES_ALLOWED; index++) {
      // Spread over the three routes and addresses: the count is the person's.
      const url = ['/api/me/delete', '/api/me/email', '/api/auth/change-password'][index % 3];
      const body =
        url === '/api/auth/change-password'
          ? { currentPassword: `wrong-${index}`, newPassword: 'new-password-1' }
          : url === '/api/me/email'
            ? { newEmail: 'elsewhere@example.com', password: `wrong-${index}` }
            : { password: `wrong-${index}` };
      expect((await send(url ?? '', body)).statusCode).toBe(400);
    }
    const limited = await send('/api/me/delete', { password: 'right-password-1' });
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({
      code: 'rate_limited',
      fields: { password: 'auth.errors.tooManyPasswordAttempts' },
    });
    const changing = await send('/api/auth/change-password', {
      currentPassword: 'right-password-1',
      newPassword: 'new-password-1',
    });
    expect(changing.statusCode).toBe(429);
    expect(changing.json()).toMatchObject({
      fields: { currentPassword: 'auth.errors.tooManyPasswordAttempts' },
    });
    // The account is still there, with its password: the right one signs in.
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      remoteAddress: nextAddress(),
      payload: { email: target.email, password: 'right-password-1' },
      headers: { origin: testOrigin },
    });
    expect(signIn.statusCode, signIn.body).toBe(200);
    expect(sessionCookie(signIn)).not.toBe('');
  });
});
