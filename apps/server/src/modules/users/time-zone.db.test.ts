import type { Calendar } from '@cadence/shared/schemas/planning';
import type { Me } from '@cadence/shared/schemas/user';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUpViaApi, type TestApp } from '../../test-support/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
}, 60_000);
afterAll(() => t.close());

const me = async (cookie: string) =>
  (await t.app.inject({ url: '/api/me', headers: { cookie } })).json<Me>();

const patchMe = (cookie: string, payload: object) =>
  t.app.inject({
    method: 'PATCH',
    url: '/api/me',
    headers: { cookie, origin: 'http://localhost:3000' },
    payload,
  });

describe("the user's time zone", () => {
  it('is the zone the browser sent at sign-up, and null when it sent none', async () => {
    const withZone = await signUpViaApi(t.app, {
      email: 'tokyo@example.com',
      timeZone: 'Asia/Tokyo',
    });
    expect((await me(withZone)).timeZone).toBe('Asia/Tokyo');
    const without = await signUpViaApi(t.app, { email: 'nozone@example.com' });
    expect((await me(without)).timeZone).toBeNull();
  });

  it('refuses a zone Intl does not know at sign-up, creating no account', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      headers: { origin: 'http://localhost:3000' },
      payload: {
        name: 'Mars',
        email: 'mars@example.com',
        password: 'secret123',
        timeZone: 'Mars/Olympus',
      },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json<{ fields: Record<string, string> }>().fields).toEqual({
      timeZone: 'errors.invalidTimeZone',
    });
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      headers: { origin: 'http://localhost:3000' },
      payload: { email: 'mars@example.com', password: 'secret123' },
    });
    expect(signIn.statusCode).toBe(401);
  });

  it('can be set later, and then names the days of the calendar', async () => {
    const cookie = await signUpViaApi(t.app, { email: 'later@example.com' });
    const set = await patchMe(cookie, { timeZone: 'America/New_York' });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json<Me>()).toMatchObject({ timeZone: 'America/New_York', preferredLanguage: 'fr' });
    const both = await patchMe(cookie, { timeZone: 'Europe/Paris', preferredLanguage: 'en' });
    expect(both.json<Me>()).toMatchObject({ timeZone: 'Europe/Paris', preferredLanguage: 'en' });
    const calendar = await t.app.inject({
      url: '/api/posts/calendar?from=2099-01-01T00:00:00Z&to=2099-01-08T00:00:00Z',
      headers: { cookie },
    });
    expect(calendar.json<Calendar>().timeZone).toBe('Europe/Paris');

    const refusals: [object, Record<string, string>][] = [
      [{ timeZone: 'Mars/Olympus' }, { timeZone: 'errors.invalidTimeZone' }],
      [{ timeZone: '' }, { timeZone: 'errors.invalidTimeZone' }],
      [{ timeZone: 42 }, { timeZone: 'errors.invalidTimeZone' }],
      [{}, { _: 'errors.nothingToChange' }],
    ];
    for (const [payload, fields] of refusals) {
      const refused = await patchMe(cookie, payload);
      expect(refused.statusCode, JSON.stringify(payload)).toBe(400);
      expect(refused.json<{ fields: Record<string, string> }>().fields).toEqual(fields);
    }
    expect((await me(cookie)).timeZone).toBe('Europe/Paris');
  });
});
