import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routesDeclaredOn } from './openapi/plugin.ts';
import { createTestApp, signUpViaApi, type TestApp } from './test-support/app.ts';

// An API answer is one person's data at one moment (app.ts): a browser must not keep it, or a
// reload (which takes the page's preloaded /api/accounts, apps/server/src/spa-pages.ts) or a Back
// could show an older one. Every GET route is asked, signed in and signed out, with addresses that
// exist and ones that do not: the answer, error or not, says how long it may be kept.

/** GET routes that are not asked here, each with why. */
const notAsked: readonly { url: string; why: string }[] = [
  {
    url: '/api/posts/events',
    why: 'a live stream that never ends (its own no-cache, no-transform: post-events.ts)',
  },
];

/** A route's address with each `:param` filled with an id nobody has. */
const addressOf = (url: string) =>
  url.replace(/:[A-Za-z]+/g, randomUUID()).replace(/\*$/, 'get-session');

describe('API answers and caches', () => {
  let test: TestApp;
  let cookie: string;
  beforeAll(async () => {
    test = await createTestApp();
    cookie = await signUpViaApi(test.app, { email: 'cache@example.com' });
  });
  afterAll(() => test.close());

  it('no cache keeps any GET answer, signed in or not, found or not', async () => {
    const urls = routesDeclaredOn(test.app)
      .filter(({ method, url }) => method === 'GET' && url.startsWith('/api/'))
      .map(({ url }) => url)
      .filter((url) => !notAsked.some((skipped) => skipped.url === url));
    expect(urls.length).toBeGreaterThan(15);
    const kept: string[] = [];
    for (const url of [...new Set(urls), '/api/no-such-route']) {
      for (const headers of [{ cookie }, {}]) {
        const response = await test.app.inject({ url: addressOf(url), headers });
        const cacheControl = String(response.headers['cache-control'] ?? '');
        const json = String(response.headers['content-type'] ?? '').startsWith('application/json');
        // JSON (the data, and every error): never stored. Anything else a route chose to let the
        // person's own browser keep (a thumbnail): private, never a shared cache.
        const ok = json ? cacheControl === 'no-store' : /\b(no-store|private)\b/.test(cacheControl);
        if (!ok) {
          kept.push(
            `${url} (${headers.cookie ? 'signed in' : 'signed out'}, ${response.statusCode}): '${cacheControl}'`,
          );
        }
      }
    }
    expect(kept).toEqual([]);
  });
});
