// /api/openapi.json describes the better-auth endpoints with shared schemas, but better-auth
// writes their replies. These go through each endpoint for real and hold every 200 reply to the
// schema its route declares, so the document cannot drift from what the server answers (a
// better-auth upgrade that changes a reply fails here, not in a client).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ZodType } from 'zod';
import { routesDeclaredOn } from '../openapi/plugin.ts';
import { createTestApp, sessionCookie, testOrigin, type TestApp } from '../test-support/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** The reply schema the route declares for 200 (what the document shows). */
function declaredReply(method: string, url: string): ZodType {
  const route = routesDeclaredOn(t.app).find((r) => r.method === method && r.url === url);
  const response = route?.schema?.response as Record<string, ZodType> | undefined;
  const schema = response?.[200];
  if (!schema) throw new Error(`${method} ${url} declares no 200 reply`);
  return schema;
}

async function call(method: 'GET' | 'POST', path: string, cookie?: string, payload?: object) {
  const url = `/api/auth/${path}`;
  const response = await t.app.inject({
    method,
    url,
    headers: { origin: testOrigin, ...(cookie && { cookie }) },
    ...(payload && { payload }),
  });
  expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(200);
  const body: unknown = response.json();
  const parsed = declaredReply(method, url).safeParse(body);
  expect(parsed.error?.issues ?? [], `${method} ${url} answered ${response.body}`).toEqual([]);
  return { response, body };
}

describe('the better-auth endpoints answer what /api/openapi.json says', () => {
  it('sign-up, sign-in, session, profile, password and session endpoints', async () => {
    const email = `replies-${randomUUID()}@example.com`;
    const signedUp = await call('POST', 'sign-up/email', undefined, {
      name: 'Zoé',
      email,
      password: 'first-secret',
      preferredLanguage: 'fr',
    });
    const first = sessionCookie(signedUp.response);
    const signedIn = await call('POST', 'sign-in/email', undefined, {
      email,
      password: 'first-secret',
    });
    const second = sessionCookie(signedIn.response);

    expect((await call('GET', 'get-session', second)).body).toMatchObject({ user: { email } });
    await call('POST', 'update-user', second, { name: 'Zoé B.' });
    const sessions = await call('GET', 'list-sessions', second);
    expect(sessions.body).toHaveLength(2);
    await call('POST', 'revoke-other-sessions', second, {});
    // A new password ends the other sessions and gives this one a new cookie.
    const changed = await call('POST', 'change-password', second, {
      currentPassword: 'first-secret',
      newPassword: 'second-secret',
    });
    await call('POST', 'request-password-reset', undefined, { email });
    await call('POST', 'revoke-sessions', sessionCookie(changed.response), {});
    // Signed out: get-session says null, which its schema allows.
    expect((await call('GET', 'get-session', first)).body).toBeNull();

    const again = sessionCookie(
      (await call('POST', 'sign-in/email', undefined, { email, password: 'second-secret' }))
        .response,
    );
    const [own] = (await call('GET', 'list-sessions', again)).body as { id: string }[];
    const other = sessionCookie(
      (await call('POST', 'sign-in/email', undefined, { email, password: 'second-secret' }))
        .response,
    );
    await call('POST', 'revoke-session', other, { id: own?.id });
    await call('POST', 'sign-out', other, {});
  });
});
