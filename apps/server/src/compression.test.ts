import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerSpa } from './app.ts';
import { createTestApp, signUpViaApi, type TestApp } from './test-support/app.ts';

// What travels over the wire: the web app's files in the compressed copies the build made, API
// answers compressed when the client accepts it, and the live event stream never held back.

describe('the built web app, compressed at build time', () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'cadence-web-dist-'));
  const bundle = `export const texts = ${JSON.stringify('Programmez vos vidéos. '.repeat(400))};\n`;
  const html = `<!doctype html><title>Cadence</title>${'<meta name="x">'.repeat(200)}`;
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  // What `vite build` leaves (apps/web/vite.config.ts): each text file with .br and .gz beside it.
  mkdirSync(path.join(root, 'assets'));
  for (const [file, text] of [
    ['index.html', html],
    ['assets/index-abc123.js', bundle],
  ] as const) {
    writeFileSync(path.join(root, file), text);
    writeFileSync(path.join(root, `${file}.br`), brotliCompressSync(text));
    writeFileSync(path.join(root, `${file}.gz`), gzipSync(text));
  }

  let app: ReturnType<typeof Fastify>;
  beforeAll(async () => {
    app = Fastify();
    await registerSpa(app, root);
  });
  afterAll(() => app.close());

  it.each([
    ['br, gzip', 'br', brotliDecompressSync],
    ['gzip, deflate', 'gzip', gunzipSync],
  ] as const)(
    'sends a bundle as %s → %s, the same bytes once decoded',
    async (accept, encoding, decode) => {
      const response = await app.inject({
        url: '/assets/index-abc123.js',
        headers: { 'accept-encoding': accept },
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding']).toBe(encoding);
      expect(response.headers['content-type']).toMatch(/javascript/);
      expect(response.headers.vary).toMatch(/accept-encoding/i);
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(response.rawPayload.length).toBeLessThan(Buffer.byteLength(bundle) / 5);
      expect(decode(response.rawPayload).toString()).toBe(bundle);
    },
  );

  it('sends the plain file to a client that accepts no compression', async () => {
    const response = await app.inject({ url: '/assets/index-abc123.js' });
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.body).toBe(bundle);
  });

  it('sends the app page of any route compressed, never cached', async () => {
    const response = await app.inject({
      url: '/scheduler/calendar',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(brotliDecompressSync(response.rawPayload).toString()).toBe(html);
  });
});

describe("a route's page, naming its chunks for the browser to fetch at once", () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'cadence-web-dist-'));
  const html = `<!doctype html><html><head><title>Cadence</title>${'<meta name="x">'.repeat(100)}</head><body><script type="module" src="/assets/index-e1.js"></script></body></html>`;
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  mkdirSync(path.join(root, '.vite'));
  writeFileSync(path.join(root, 'index.html'), html);
  writeFileSync(path.join(root, 'index.html.br'), brotliCompressSync(html));
  // What apps/web/scripts/route-budgets.mjs writes: each route's files beyond the entry.
  const scheduler = {
    js: ['assets/router-a1.js', 'assets/scheduler-page-b2.js'],
    css: ['assets/scheduler-c3.css'],
  };
  writeFileSync(
    path.join(root, '.vite/route-preloads.json'),
    JSON.stringify({ '/scheduler': scheduler, '/scheduler/history': scheduler }),
  );

  let app: ReturnType<typeof Fastify>;
  beforeAll(async () => {
    app = Fastify();
    await registerSpa(app, root);
  });
  afterAll(() => app.close());

  // A script is fetched at low priority, after the stylesheet the first paint waits for.
  const preloadsIn = (page: string) =>
    [
      ...page.matchAll(
        /<link rel="(modulepreload|stylesheet)"( fetchpriority="low")? crossorigin href="([^"]+)">/g,
      ),
    ].map((match) => `${match[1]}${match[2] ? ' low' : ''} ${match[3]}`);

  it.each([
    ['/scheduler', 'br, gzip', 'br', brotliDecompressSync],
    ['/scheduler/', 'gzip', 'gzip', gunzipSync],
    ['/scheduler/history', '', undefined, (body: Buffer) => body],
  ] as const)(
    'GET %s (accepting %j) → %s, the files in its head',
    async (url, accept, encoding, decode) => {
      const response = await app.inject({ url, headers: { 'accept-encoding': accept } });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding']).toBe(encoding);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.headers.vary).toMatch(/accept-encoding/i);
      const page = decode(response.rawPayload).toString();
      expect(preloadsIn(page)).toEqual([
        'stylesheet /assets/scheduler-c3.css',
        'modulepreload low /assets/router-a1.js',
        'modulepreload low /assets/scheduler-page-b2.js',
      ]);
      // The page is index.html otherwise: the links sit in its head, before the entry runs.
      expect(page.indexOf('modulepreload')).toBeLessThan(page.indexOf('</head>'));
      expect(page.replace(/\s*<link [^>]+>/g, '').replace(/\s*<\/head>/, '</head>')).toBe(html);
    },
  );

  it('answers a page the browser holds with 304', async () => {
    const first = await app.inject({ url: '/scheduler', headers: { 'accept-encoding': 'br' } });
    const again = await app.inject({
      url: '/scheduler',
      headers: { 'accept-encoding': 'br', 'if-none-match': String(first.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
  });

  it('sends index.html as built to a route with nothing to preload (/auth)', async () => {
    const response = await app.inject({ url: '/auth', headers: { 'accept-encoding': 'br' } });
    expect(response.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(response.rawPayload).toString()).toBe(html);
  });
});

describe("a signed-in visitor's page, naming its first screen's API requests", () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'cadence-web-dist-'));
  const html = `<!doctype html><html><head><title>Cadence</title></head><body><div id="root"></div></body></html>`;
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  mkdirSync(path.join(root, '.vite'));
  writeFileSync(path.join(root, 'index.html'), html);
  writeFileSync(
    path.join(root, '.vite/route-preloads.json'),
    JSON.stringify({
      '/scheduler': {
        js: ['assets/scheduler-page-b2.js'],
        css: [],
        data: ['/api/me', '/api/accounts', '/api/posts/queue?limit=20'],
      },
      // A build from before the data preloads: nothing to name.
      '/settings': { js: ['assets/settings-page-d4.js'], css: [] },
    }),
  );

  let app: ReturnType<typeof Fastify>;
  beforeAll(async () => {
    app = Fastify();
    // Stands in for the session look-up (app.ts asks better-auth): the cookie 'session=valid'.
    await registerSpa(app, root, (request) =>
      Promise.resolve(request.headers.cookie === 'session=valid'),
    );
  });
  afterAll(() => app.close());

  const dataPreloadsIn = (page: string) =>
    [...page.matchAll(/<link rel="preload" as="fetch" crossorigin href="([^"]+)">/g)].map(
      (match) => match[1],
    );
  const get = (url: string, cookie?: string) =>
    app.inject({ url, headers: cookie === undefined ? {} : { cookie } });

  it('names /api/me and the list, before the scripts, and is kept by no shared cache', async () => {
    const response = await get('/scheduler', 'session=valid');
    expect(response.statusCode).toBe(200);
    expect(dataPreloadsIn(response.body)).toEqual([
      '/api/me',
      '/api/accounts',
      '/api/posts/queue?limit=20',
    ]);
    expect(response.body.indexOf('as="fetch"')).toBeLessThan(
      response.body.indexOf('modulepreload'),
    );
    expect(response.headers['cache-control']).toBe('private, no-cache');
    expect(response.headers.vary).toMatch(/cookie/i);
  });

  it.each([
    ['no cookie', undefined],
    ['a cookie with no session behind it', 'session=expired'],
  ])('names none for a visitor with %s (each would answer 401)', async (_, cookie) => {
    const response = await get('/scheduler', cookie);
    expect(response.statusCode).toBe(200);
    expect(dataPreloadsIn(response.body)).toEqual([]);
    expect(response.body).toContain('rel="modulepreload"');
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.headers.vary).toMatch(/cookie/i);
  });

  it('names only /api/me when the address has a query (it may narrow the list)', async () => {
    const response = await get('/scheduler?status=failed', 'session=valid');
    expect(dataPreloadsIn(response.body)).toEqual(['/api/me']);
  });

  it('carries addresses only: the page is index.html and its links, the same for everyone', async () => {
    const signedIn = await get('/scheduler', 'session=valid');
    const signedOut = await get('/scheduler');
    expect(signedIn.body.replace(/\s*<link [^>]+>/g, '').replace(/\s*<\/head>/, '</head>')).toBe(
      html,
    );
    expect(signedIn.headers.etag).not.toBe(signedOut.headers.etag);
    const again = await app.inject({
      url: '/scheduler',
      headers: { cookie: 'session=valid', 'if-none-match': String(signedIn.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    // The signed-out page's validator does not match the signed-in page.
    const stale = await app.inject({
      url: '/scheduler',
      headers: { 'if-none-match': String(signedIn.headers.etag) },
    });
    expect(stale.statusCode).toBe(200);
    expect(dataPreloadsIn(stale.body)).toEqual([]);
  });

  it('names nothing more for a route the build listed no requests for', async () => {
    const response = await get('/settings', 'session=valid');
    expect(dataPreloadsIn(response.body)).toEqual([]);
    expect(response.body).toContain('/assets/settings-page-d4.js');
  });
});

describe('API answers', () => {
  let test: TestApp;
  let cookie: string;
  beforeAll(async () => {
    test = await createTestApp({}, { listen: true });
    cookie = await signUpViaApi(test.app, { email: 'wire@example.com' }, test.url);
  });
  afterAll(() => test.close());

  it('are compressed when the client accepts it, and decode to the same JSON', async () => {
    const plain = await test.app.inject({ url: '/api/openapi.json' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    for (const [accept, encoding, decode] of [
      ['br', 'br', brotliDecompressSync],
      ['gzip', 'gzip', gunzipSync],
    ] as const) {
      const response = await test.app.inject({
        url: '/api/openapi.json',
        headers: { 'accept-encoding': accept },
      });
      expect(response.headers['content-encoding']).toBe(encoding);
      expect(response.rawPayload.length).toBeLessThan(plain.rawPayload.length / 4);
      expect(JSON.parse(decode(response.rawPayload).toString())).toEqual(plain.json());
    }
  });

  it('leave small answers as they are', async () => {
    const response = await test.app.inject({
      url: '/api/me',
      headers: { cookie, 'accept-encoding': 'br, gzip' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload.length).toBeLessThan(1024);
    expect(response.headers['content-encoding']).toBeUndefined();
  });

  it('never compress the live event stream: its first event arrives at once', async () => {
    const controller = new AbortController();
    try {
      const response = await fetch(`${test.url}/api/posts/events`, {
        headers: { cookie, 'accept-encoding': 'br, gzip' },
        signal: controller.signal,
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
      expect(response.headers.get('content-encoding')).toBeNull();
      const reader = response.body!.getReader();
      const first = await reader.read();
      expect(new TextDecoder().decode(first.value)).toMatch(/^(:|data:|event:|retry:)/m);
    } finally {
      controller.abort();
    }
  });
});
