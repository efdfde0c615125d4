import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { buildApp } from './app.ts';
import { bootstrap } from './bootstrap.ts';
import { loadConfig } from './config.ts';
import type { AppContext } from './context.ts';
import { errorCodes } from '@cadence/shared/errors';
import { isTranslationKey } from '@cadence/shared/translation-key';
import { sessionCookie } from './test-support/app.ts';
import { capturedLogger } from './test-support/captured-logs.ts';
import { openTestDatabase } from './test-support/database.ts';

/**
 * "No endpoint answers 5xx to anything a client can send": every route the app registers
 * (better-auth's under /api/auth included) gets malformed ids, bodies of the wrong shape and type,
 * deeply nested JSON, NUL bytes, oversized fields, hostile headers and junk query strings, as a
 * signed-in Pro user (so Pro checks do not stop the request before validation), signed out and
 * with a forged cookie; the tus endpoint gets every protocol header wrong. A client's mistake must
 * also never be logged at error level: that level is for what an operator has to look at.
 */
let app: FastifyInstance;
let context: AppContext & { shutdown(): Promise<void> };
let origin: string;
let dataDir: string;
let cookie: string;
let errorLogs: string[] = [];

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
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
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

// The first is an id a route's schema takes (no row has it): the handler runs and reads the body.
// (The first query, none, is the same for the routes without an id.)
// '%zz' cannot be decoded and 600 characters exceed Fastify's maxParamLength: both are refused
// by Fastify before any route runs, and must be answered as every other refusal is.
const hostileIds = [
  randomUUID(),
  'x',
  '..%2F..%2Fetc%2Fpasswd',
  'a'.repeat(600),
  '%00',
  '1e309',
  '%zz',
];
const hostileQueries = [
  '',
  `?kind=%FF&state=${'s'.repeat(3000)}&code[]=1&download=2`,
  '?a=%&b=%E0%A4%A&__proto__[isPro]=true&constructor[prototype][x]=1',
  '?token=%00&disableCookieCache=yes&callbackURL=javascript:alert(1)',
];
const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const nestedObject = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
const wrongShape =
  '{"username":123,"mediaIds":"x","accountId":{},"publishType":"later","posts":[1]}';
const deepest = nested(6000);
const notUtf8 = Buffer.from([
  0x7b, 0x22, 0x6e, 0x61, 0x6d, 0x65, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d,
]);
const hostileBodies: (string | Buffer | undefined)[] = [
  undefined,
  '',
  '{',
  '[]',
  'null',
  '"text"',
  '1e309',
  '123456789012345678901234567890',
  wrongShape,
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
  // Deep nesting overflowed the stack in the auth forwarder; just under the limit must pass too.
  deepest,
  nestedObject(6000),
  `{"name":${nested(6000)}}`,
  nestedObject(31),
  '{"__proto__":{"isPro":true}}',
  '{"constructor":{"prototype":{"isPro":true}}}',
  // better-auth's fields with the values that reached the database before.
  '{"preferredLanguage":"xx"}',
  '{"name":null}',
  JSON.stringify({ name: 'x'.repeat(100_000), image: 'javascript:alert(1)' }),
  JSON.stringify({
    email: {},
    password: [],
    currentPassword: 1,
    newPassword: true,
    token: null,
    revokeOtherSessions: 'yes',
    rememberMe: 'x',
    callbackURL: 'javascript:alert(1)',
    isPro: true,
  }),
  JSON.stringify({ email: 'fuzz@example.com', password: 'p'.repeat(100_000) }),
  JSON.stringify({ name: 'F', email: `${'e'.repeat(300)}@example.com`, password: 'secret123' }),
  JSON.stringify({ name: '\ud800', email: 'lone\udfff@example.com', password: '\ud800\ud800' }),
  // Well-formed but refused by better-auth itself: a client's mistake, not an operator's alert.
  JSON.stringify({ email: 'fuzzer@example.com', password: 'wrong-password' }),
  JSON.stringify({ name: 'Again', email: 'fuzzer@example.com', password: 'secret123' }),
  // Not UTF-8 at all.
  notUtf8,
];
/**
 * What goes with the ids and queries after the first on Cadence's own routes. Each of those ids is
 * refused by the router or the route's schema, or names no row as the first does; each of those
 * queries is refused by the route's schema, or ignored by a route that reads none. Whatever the body
 * says, it is only parsed there, so these stand for the others: none, the wrong shape, nesting past
 * the limit, bytes that are not UTF-8. Every body still goes with the first id or query, and
 * better-auth's routes get every query with every body (better-auth reads its query beside the
 * body). The full product sent 31,579 requests, most of them these pairs again.
 */
const bodiesWithOtherUrls = new Set<string | Buffer | undefined>([
  undefined,
  wrongShape,
  deepest,
  notUtf8,
]);

/** Rotated over the requests (not multiplied): each request gets one of them. */
const hostileHeaders: Record<string, string>[] = [
  {},
  { 'content-type': 'text/plain' },
  { 'content-type': 'application/json; charset=utf-16' },
  { 'content-type': 'application/x-www-form-urlencoded' },
  { 'content-type': 'multipart/form-data; boundary=x' },
  { 'content-type': 'application/json', 'content-encoding': 'gzip' },
  { 'accept-language': 'x'.repeat(4000), 'user-agent': 'u'.repeat(8000) },
  { 'x-forwarded-for': 'not-an-ip, ::1, 999.1.1.1', 'x-forwarded-proto': 'javascript' },
  { accept: 'text/event-stream', 'sec-fetch-site': 'same-origin' },
  { 'x-http-method-override': 'DELETE', 'x-forwarded-host': 'evil.example:99999' },
  { authorization: 'Bearer \u00ff'.repeat(50) },
  { origin: 'https://evil.example' },
  { 'sec-fetch-site': 'cross-site' },
  { host: 'evil.example' },
];

/** Forged or broken session cookies, besides the real one and none. */
const hostileCookies = [
  'cadence.session_token=forged.signature',
  'cadence.session_token=%ZZ%',
  `cadence.session_token=${'A'.repeat(4000)}; cadence.session_token=x`,
  'cadence.session_token="\\"; other=1',
];

let sent = 0;
const failures: string[] = [];
/** Refusals whose body is not ours (`{ code, message, fields? }`), one line per kind of answer. */
const untranslated = new Set<string>();

/**
 * True when a refusal says why in words a client can translate: a code of the closed set (each
 * has its message in both languages) and field messages that are keys French has. tus speaks its
 * own protocol (status codes, and our `media_rejected` body where a person must read why); HEAD
 * answers carry no body.
 */
function answersInOurTerms(method: string, url: string, body: string): boolean {
  if (method === 'HEAD' || url.startsWith('/api/uploads')) return true;
  try {
    const parsed = apiErrorShape.safeParse(JSON.parse(body));
    return parsed.success;
  } catch {
    return false;
  }
}

const apiErrorShape = z.object({
  code: z.enum(errorCodes),
  message: z.string(),
  fields: z.record(z.string(), z.string().refine(isTranslationKey)).optional(),
});

/** One request; a 5xx is recorded with enough to replay it. Each comes from its own address. */
async function send(options: InjectOptions & { method: string; url: string }, label: string) {
  sent++;
  const response = await app.inject({
    ...options,
    remoteAddress: `10.${(sent >> 16) & 255}.${(sent >> 8) & 255}.${sent & 255}`,
  });
  if (
    response.statusCode >= 400 &&
    !answersInOurTerms(options.method, options.url, response.body)
  ) {
    // Repeated characters (a 600-character id) folded, so one kind of answer is one line.
    untranslated.add(
      `${options.method} → ${response.statusCode} ${response.body.replace(/(.)\1{7,}/g, '$1…').slice(0, 160)}`,
    );
  }
  if (response.statusCode >= 500) {
    failures.push(
      `${options.method} ${options.url.slice(0, 80)} ${label.slice(0, 100)} → ${response.statusCode} ${response.body.slice(0, 120)}`,
    );
  }
  return response;
}

beforeAll(async () => {
  // The real app, as createTestApp builds it, with a logger that keeps what is logged as error.
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'cadence-fuzz-'));
  origin = 'http://localhost:3000';
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    PUBLIC_URL: origin,
    LOG_LEVEL: 'error',
  });
  const { logger, lines } = capturedLogger('error');
  errorLogs = lines;
  context = await bootstrap(config, {
    runWorkers: false,
    logger,
    database: await openTestDatabase(),
  });
  app = await buildApp(context, logger);
  const signUp = await app.inject({
    method: 'POST',
    url: '/api/auth/sign-up/email',
    headers: { origin },
    payload: { name: 'Fuzzer', email: 'fuzzer@example.com', password: 'secret123' },
  });
  cookie = sessionCookie(signUp);
  await context.users.setProByEmail('fuzzer@example.com', true);
});
afterAll(async () => {
  await app.close();
  await context.shutdown();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('hostile input', () => {
  it('finds the routes to exercise', () => {
    const urls = registeredRoutes().map((route) => `${route.method} ${route.url}`);
    expect(urls).toEqual(
      expect.arrayContaining([
        'POST /api/schedules',
        'GET /api/media/:id/file',
        'POST /api/memes/:id/recompile',
        'POST /api/auth/sign-up/email',
        'POST /api/auth/update-user',
        'POST /api/auth/change-password',
        'GET /api/auth/list-sessions',
      ]),
    );
  });

  // About 12,400 requests through inject(): a subset of the full product of routes, ids, bodies
  // and sessions, which would take several times as long.
  it(
    'never answers 5xx, signed in or not, on any route, better-auth and tus included',
    { timeout: 300_000 },
    async () => {
      const startedAt = performance.now();
      // Libraries that log on their own (better-auth printed every refused Content-Type as ERROR).
      const consoleErrors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
      // Routes that end the fuzzer's own session go last, so the others run signed in.
      const endsSession = (route: Route) => /^\/api\/auth\/(sign-out|revoke-)/.test(route.url);
      const routes = [
        ...registeredRoutes(),
        // Not routed: better-auth endpoints Cadence does not expose must be a plain 404.
        { method: 'POST', url: '/api/auth/update-session' },
        { method: 'POST', url: '/api/auth/sign-in/social' },
        { method: 'GET', url: '/api/auth/callback/:id' },
      ]
        .filter(
          // Long-lived or external: the SSE stream stays open, uploads speak tus (below), the
          // sandbox is TikTok's stand-in, and the SPA fallback serves files.
          (route) =>
            (route.url.startsWith('/api/') || route.url.startsWith('/auth/')) &&
            !/^\/api\/(posts\/events|uploads)/.test(route.url),
        )
        .sort((a, b) => Number(endsSession(a)) - Number(endsSession(b)));

      let rotation = 0;
      let sessionChecked = false;
      for (const route of routes) {
        if (endsSession(route) && !sessionChecked) {
          // Nothing before this point may have ended the session: the signed-in half really was.
          const me = await app.inject({ url: '/api/me', headers: { cookie } });
          expect(me.statusCode).toBe(200);
          sessionChecked = true;
        }
        const urls = route.url.includes(':')
          ? hostileIds.map((id) => route.url.replace(/:[A-Za-z]+/g, id))
          : hostileQueries.map((query) => route.url + query);
        const bodies = route.method === 'GET' ? [undefined] : hostileBodies;
        for (const [index, url] of urls.entries()) {
          const bodyOnlyParsed = index > 0 && !route.url.startsWith('/api/auth/');
          for (const body of bodies) {
            if (bodyOnlyParsed && !bodiesWithOtherUrls.has(body)) continue;
            const forged = hostileCookies[rotation % hostileCookies.length];
            for (const cookieHeader of [cookie, undefined, forged]) {
              const extra = hostileHeaders[rotation++ % hostileHeaders.length] ?? {};
              // Fastify answers HEAD on every GET route: half of the GETs go as HEAD.
              const method = route.method === 'GET' && rotation % 2 === 0 ? 'HEAD' : route.method;
              await send(
                {
                  method,
                  url,
                  headers: {
                    origin,
                    ...(cookieHeader && { cookie: cookieHeader }),
                    ...(body !== undefined && { 'content-type': 'application/json' }),
                    ...extra,
                  },
                  ...(body !== undefined && { payload: body }),
                },
                `${String(body).slice(0, 50)} ${JSON.stringify(extra).slice(0, 40)}`,
              );
            }
          }
        }
      }

      const routesDone = sent;
      const routesSeconds = (performance.now() - startedAt) / 1000;
      await fuzzUploads();
      console.log(
        `api-robustness: routes ${routesDone} requests in ${routesSeconds.toFixed(1)} s, tus ${sent - routesDone} in ${((performance.now() - startedAt) / 1000 - routesSeconds).toFixed(1)} s`,
      );

      console.log(`api-robustness: ${sent} requests, ${failures.length} answered ≥ 500`);
      expect(sent).toBeGreaterThanOrEqual(10_000);
      expect(failures).toEqual([]);
      expect([...untranslated]).toEqual([]);
      expect(errorLogs.map((line) => line.slice(0, 300))).toEqual([]);
      expect(consoleErrors.mock.calls.map((call) => String(call[0]).slice(0, 200))).toEqual([]);
      consoleErrors.mockRestore();
    },
  );
});

/** A new session for the fuzzer: the routes that end sessions may have ended the first one. */
async function freshSession(): Promise<string> {
  const signIn = await app.inject({
    method: 'POST',
    url: '/api/auth/sign-in/email',
    headers: { origin },
    payload: { email: 'fuzzer@example.com', password: 'secret123' },
  });
  return sessionCookie(signIn);
}

/** Sends `request` as raw bytes to the listening app; resolves with all it answered before closing. */
function rawExchange(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
    socket.on('error', reject);
    socket.on('close', () => resolve(answer));
    socket.end(request, 'latin1');
  });
}

describe('malformed HTTP', () => {
  // inject() builds well-formed requests: what Node's parser and Fastify's router refuse before any
  // route runs is only reachable through a socket.
  it('is refused with the body every refusal has, and nothing it carried is acted on', async () => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    if (address === null || typeof address === 'string') throw new Error('not listening');
    const cookie = await freshSession();
    const head = (line: string, headers = '') =>
      `${line}\r\nHost: 127.0.0.1\r\nOrigin: ${origin}\r\nCookie: ${cookie}\r\n${headers}`;
    const json = 'Content-Type: application/json\r\n';
    const requests = {
      'an undecodable path': head('GET /api/media/%zz HTTP/1.1') + '\r\n',
      'an undecodable page path': head('GET /%E0%A4%A HTTP/1.1') + '\r\n',
      'a path parameter over the length limit':
        head(`GET /api/posts/${'a'.repeat(600)} HTTP/1.1`) + '\r\n',
      'bytes that are not UTF-8 in the path': head('GET /api/media/\xff\xfe HTTP/1.1') + '\r\n',
      'an unknown method': head('FOO /api/me HTTP/1.1') + '\r\n',
      'Content-Length and Transfer-Encoding together':
        head(
          'POST /api/accounts HTTP/1.1',
          `${json}Content-Length: 5\r\nTransfer-Encoding: chunked\r\n`,
        ) + '\r\n0\r\n\r\n',
      'two Content-Lengths':
        head('POST /api/accounts HTTP/1.1', `${json}Content-Length: 2\r\nContent-Length: 3\r\n`) +
        '\r\n{}',
      'a negative Content-Length':
        head('POST /api/accounts HTTP/1.1', `${json}Content-Length: -1\r\n`) + '\r\n',
      'a malformed chunk':
        head('POST /api/accounts HTTP/1.1', `${json}Transfer-Encoding: chunked\r\n`) +
        '\r\nZZ\r\nabc\r\n0\r\n\r\n',
      'a body longer than its Content-Length':
        head('POST /api/accounts HTTP/1.1', `${json}Content-Length: 5\r\n`) +
        '\r\n{"username":"smuggled"}',
      'headers over the size limit':
        head('GET /api/me HTTP/1.1', `X-Big: ${'a'.repeat(20_000)}\r\n`) + '\r\n',
    };
    const accountsBefore = await app.inject({ url: '/api/accounts', headers: { cookie } });
    const answers: Record<string, string> = {};
    for (const [label, request] of Object.entries(requests)) {
      const answer = await rawExchange(address.port, request);
      // The first answer on the connection: one that was smuggled behind it would come second.
      const [statusLine = '', ...rest] = answer.split('\r\n');
      const body = answer.slice(answer.indexOf('\r\n\r\n') + 4).split('HTTP/1.1')[0] ?? '';
      const status = Number(statusLine.split(' ')[1]);
      answers[label] =
        status >= 400 && status < 500 && answersInOurTerms('GET', '/', body)
          ? 'refused in our terms'
          : `${statusLine} ${rest.length} lines ${body.slice(0, 160)}`;
    }
    expect(answers).toEqual(
      Object.fromEntries(Object.keys(requests).map((label) => [label, 'refused in our terms'])),
    );
    // Nothing the malformed requests carried was acted on.
    const accountsAfter = await app.inject({ url: '/api/accounts', headers: { cookie } });
    expect(accountsAfter.json()).toEqual(accountsBefore.json());
  });
});

const base64 = (value: string) => Buffer.from(value).toString('base64');

/** tus: creation, HEAD, PATCH, DELETE with every protocol header missing, wrong or hostile. */
async function fuzzUploads(): Promise<void> {
  // The fuzzer's session may have ended with the routes above: a fresh one for uploads.
  const uploadCookie = await freshSession();
  const valid = {
    origin,
    'tus-resumable': '1.0.0',
    'upload-length': '10',
    'upload-metadata': `filename ${base64('clip.mp4')}`,
  };
  const created = await app.inject({
    method: 'POST',
    url: '/api/uploads',
    headers: { ...valid, cookie: uploadCookie },
  });
  expect(created.statusCode, created.body).toBe(201);
  const location = created.headers.location ?? '';
  const realId = location.split('/').pop() ?? '';

  const headerVariants: Record<string, string>[] = [
    {},
    { 'tus-resumable': '0.2.2' },
    { 'tus-resumable': 'x'.repeat(1000) },
    { 'upload-length': '-1' },
    { 'upload-length': '1e309' },
    { 'upload-length': 'abc' },
    { 'upload-length': '99999999999999999999999' },
    { 'upload-length': String(Number.MAX_SAFE_INTEGER + 2) },
    { 'upload-length': '0' },
    { 'upload-defer-length': '1' },
    { 'upload-defer-length': 'x' },
    { 'upload-concat': 'partial' },
    { 'upload-concat': 'final;/api/uploads/a /api/uploads/b' },
    { 'upload-concat': 'final;' },
    { 'upload-concat': 'garbage' },
    { 'upload-metadata': `filename ${base64('a\u0000b.mp4')}` },
    // Creation with upload: the whole file in the POST, so it completes (and is probed) at once.
    {
      'upload-metadata': `filename ${base64('a\u0000b.mp4')}`,
      'content-type': 'application/offset+octet-stream',
    },
    {
      'upload-metadata': `filename ${base64('\u0007\u001b[31m.mp4')},purpose ${base64('source')}`,
      'content-type': 'application/offset+octet-stream',
    },
    { 'upload-metadata': `filename ${base64('clip.mp4')},purpose ${base64('\u0000')}` },
    { 'upload-metadata': 'filename !!!not-base64!!!' },
    { 'upload-metadata': 'filename' },
    { 'upload-metadata': `filename ${base64('x'.repeat(10_000))}` },
    { 'upload-metadata': `filename ${base64('../../etc/passwd')},filename ${base64('b')}` },
    { 'upload-metadata': `filename ${base64('\ud800.mp4')},purpose ${base64('source')}` },
    { 'upload-metadata': ',,,  ,' },
    { 'upload-offset': '-1' },
    { 'upload-offset': 'abc' },
    { 'upload-offset': '0' },
    { 'upload-offset': '999999999999' },
    { 'upload-offset': '0', 'content-type': 'text/plain' },
    { 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
    {
      'upload-offset': '0',
      'content-type': 'application/offset+octet-stream',
      'upload-checksum': 'sha1 xxx',
    },
    { 'upload-checksum': 'md5 !!' },
    { 'x-http-method-override': 'PATCH' },
    { 'x-http-method-override': 'DELETE' },
    { 'x-http-method-override': 'TRACE' },
    { 'x-forwarded-proto': 'javascript', 'x-forwarded-host': 'evil.example:99999' },
    { 'content-type': 'application/json' },
    { origin: 'https://evil.example' },
  ];
  const targets = [
    '/api/uploads',
    `/api/uploads/${realId}`,
    '/api/uploads/x',
    '/api/uploads/..%2F..%2Fetc%2Fpasswd',
    `/api/uploads/${'a'.repeat(600)}`,
    '/api/uploads/%00',
    `/api/uploads/${randomUUID()}-${'0'.repeat(32)}`,
    `/api/uploads/${realId}?x=%00`,
  ];
  const payloads = [undefined, Buffer.from('0123456789'), Buffer.alloc(64 * 1024, 1)];
  // Every variant goes to the two addresses tus serves, the collection and the real upload, with
  // each cookie and payload. The other addresses (refused, or no such upload) take the variants in
  // turn, one per method, cookie and payload: the full product gave every variant there the same
  // refusal (9,283 requests of the 31,579).
  const served = new Set(['/api/uploads', `/api/uploads/${realId}`]);
  let turn = 0;
  for (const method of ['POST', 'HEAD', 'PATCH', 'DELETE', 'GET', 'OPTIONS']) {
    for (const url of targets) {
      for (const cookieHeader of [uploadCookie, undefined, hostileCookies[0]]) {
        for (const payload of method === 'PATCH' || method === 'POST' ? payloads : [undefined]) {
          // DELETE of the real upload would leave nothing for the others: keep it for last.
          if (method === 'DELETE' && url.includes(realId) && cookieHeader === uploadCookie)
            continue;
          const variants = served.has(url)
            ? headerVariants
            : [headerVariants[turn++ % headerVariants.length] ?? {}];
          for (const variant of variants) {
            await send(
              {
                method,
                url,
                headers: {
                  ...valid,
                  ...(cookieHeader && { cookie: cookieHeader }),
                  ...variant,
                },
                ...(payload !== undefined && { payload }),
              },
              `tus ${JSON.stringify(variant).slice(0, 80)} ${payload?.length ?? 0} bytes`,
            );
          }
        }
      }
    }
  }
  await send(
    { method: 'DELETE', url: location, headers: { ...valid, cookie: uploadCookie } },
    'tus delete',
  );
}
