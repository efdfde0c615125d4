import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUpViaApi, type TestApp } from './test-support/app.ts';

/**
 * "No endpoint answers 5xx to anything a client can send": every route the app registers gets
 * malformed ids, bodies of the wrong shape and type, oversized fields and junk query strings, as a
 * signed-in Pro user (so Pro checks do not stop the request before validation) and signed out.
 */
let t: TestApp;
let cookie: string;

interface Route {
  method: string;
  url: string;
}

/**
 * Every route from Fastify's own table. `printRoutes` draws a radix tree (`│   ├── /:id (DELETE)`):
 * each line's segment continues the path of the nearest line one level up.
 */
function registeredRoutes(): Route[] {
  const routes: Route[] = [];
  const prefixes: string[] = [];
  for (const line of t.app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^(.*?)[├└]── (\S+)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match?.[2]) continue;
    const depth = (match[1] ?? '').length / 4;
    const path = (prefixes[depth - 1] ?? '') + match[2];
    prefixes[depth] = path;
    prefixes.length = depth + 1;
    for (const method of (match[3] ?? '').split(', ')) {
      if (method === '' || method === 'HEAD' || method === 'OPTIONS') continue;
      routes.push({ method, url: path });
    }
  }
  return routes;
}

const hostileIds = ['x', randomUUID(), '..%2F..%2Fetc%2Fpasswd', 'a'.repeat(600), '%00', '1e309'];
const hostileBodies: (string | undefined)[] = [
  undefined,
  '{',
  '[]',
  'null',
  '"text"',
  '{"username":123,"mediaIds":"x","accountId":{},"publishType":"later","posts":[1]}',
  JSON.stringify({ username: 'x'.repeat(100_000), url: 'y'.repeat(100_000) }),
  JSON.stringify({
    source: { type: 'youtube', url: 42 },
    topMediaIds: [null],
    selectedIndexes: [-1, 1e9],
  }),
  JSON.stringify({
    dueAt: 'not a date',
    preferredLanguage: ['fr'],
    defaultPrivacyLevel: 'EVERYONE',
  }),
  // NUL bytes cannot be stored in PostgreSQL text: they must be refused, not crash a query.
  JSON.stringify({
    username: 'a\u0000b',
    mediaIds: ['\u0000'],
    accountId: '\u0000',
    topMediaIds: ['\u0000'],
    bottomMediaIds: ['x\u0000'],
    source: { type: 'media', mediaId: '\u0000' },
    email: 'a\u0000@example.com',
    name: 'N\u0000',
    password: 'p\u0000ssword',
  }),
];

beforeAll(async () => {
  t = await createTestApp({}, { listen: true });
  cookie = await signUpViaApi(t.app, { email: 'fuzzer@example.com' }, t.url);
  await t.context.users.setProByEmail('fuzzer@example.com', true);
});
afterAll(() => t.close());

describe('hostile input', () => {
  it('finds the routes to exercise', () => {
    const urls = registeredRoutes().map((route) => `${route.method} ${route.url}`);
    expect(urls).toEqual(
      expect.arrayContaining([
        'POST /api/schedules',
        'GET /api/media/:id/file',
        'POST /api/memes/:id/recompile',
      ]),
    );
  });

  it('never answers 5xx, signed in or not', async () => {
    const failures: string[] = [];
    const routes = registeredRoutes().filter(
      // Long-lived or external: the SSE stream stays open, uploads speak tus (tested on their own),
      // the sandbox is TikTok's stand-in, and the SPA fallback serves files.
      (route) =>
        route.url.startsWith('/api/') || route.url.startsWith('/auth/')
          ? !/^\/api\/(posts\/events|uploads)/.test(route.url)
          : false,
    );
    for (const route of routes) {
      const urls = route.url.includes(':')
        ? hostileIds.map((id) => route.url.replace(/:[A-Za-z]+/g, id))
        : [route.url, `${route.url}?kind=%FF&state=${'s'.repeat(3000)}&code[]=1&download=2`];
      for (const url of urls) {
        const bodies =
          route.method === 'GET' || route.method === 'DELETE' ? [undefined] : hostileBodies;
        for (const body of bodies) {
          for (const withCookie of [true, false]) {
            const response = await t.app.inject({
              method: route.method as 'GET',
              url,
              headers: {
                origin: t.url,
                ...(withCookie && { cookie }),
                ...(body !== undefined && { 'content-type': 'application/json' }),
              },
              ...(body !== undefined && { payload: body }),
            });
            if (response.statusCode >= 500) {
              failures.push(
                `${route.method} ${url.slice(0, 80)} ${String(body).slice(0, 60)} → ${response.statusCode} ${response.body.slice(0, 120)}`,
              );
            }
          }
        }
      }
    }
    expect(failures).toEqual([]);
  });
});
