import { mkdtempSync, rmSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { bootstrap } from '../../bootstrap.ts';
import { loadConfig } from '../../config.ts';
import type { AppContext } from '../../context.ts';
import { freePort } from '../../../../../e2e/support/server.ts';
import { sessionCookie } from '../../test-support/app.ts';
import { capturedLogger } from '../../test-support/captured-logs.ts';
import { openTestDatabase } from '../../test-support/database.ts';

/**
 * Hostile tus traffic over real sockets (raw bytes, so nothing is tidied up by an HTTP client):
 * wrong, negative, huge and non-numeric lengths and offsets, bad Tus-Resumable, deferred lengths,
 * concatenation, broken or hostile Upload-Metadata, wrong content types, bodies longer or shorter
 * than announced, other users' uploads, forged cookies, interleaved with real uploads being
 * written. Not one answer may be a 5xx, nothing may be logged at error level, and afterwards
 * every stored byte must belong to a row and every row to its bytes.
 */
const REQUESTS = 1_200;
const QUOTA = 40_000_000;
const MAX_UPLOAD = 2_000_000;

let app: FastifyInstance;
let context: AppContext & { shutdown(): Promise<void> };
let dataDir: string;
let port: number;
let attacker: string;
let victim: string;
let errorLogs: string[] = [];

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'cadence-tus-fuzz-'));
  port = await freePort();
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    LOG_LEVEL: 'error',
    USER_QUOTA_BYTES: String(QUOTA),
    MAX_UPLOAD_BYTES: String(MAX_UPLOAD),
  });
  const { logger, lines } = capturedLogger('error');
  errorLogs = lines;
  context = await bootstrap(config, {
    runWorkers: false,
    logger,
    database: await openTestDatabase(),
  });
  app = await buildApp(context, logger);
  await app.listen({ port, host: '127.0.0.1' });
  attacker = await signUp('attacker@example.com');
  victim = await signUp('victim@example.com');
});
afterAll(async () => {
  await app.close();
  await context.shutdown();
  rmSync(dataDir, { recursive: true, force: true });
});

async function signUp(email: string): Promise<string> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/auth/sign-up/email',
    payload: { name: 'Fuzz', email, password: 'secret123' },
  });
  return sessionCookie(response);
}

/** mulberry32: the same run every time, so a failure can be replayed. */
function random(seed: number) {
  let state = seed;
  const next = () => {
    state = (state + 0x6d2b79f5) | 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
  };
  return {
    next,
    int: (below: number) => Math.floor(next() * below),
    pick: <TItem>(items: readonly TItem[]): TItem => items[Math.floor(next() * items.length)]!,
    chance: (probability: number) => next() < probability,
  };
}

interface RawRequest {
  method: string;
  target: string;
  headers: [string, string][];
  body: Buffer;
  /**
   * Close our side once the bytes are out, as a client that gave up mid-body: it may get no
   * answer. Every other request is answered (then closed by the server: Connection: close).
   */
  hangUp: boolean;
}

interface RawAnswer {
  status: number | null;
  headers: Record<string, string>;
  body: string;
}

/** One request on its own connection, bytes exactly as given; resolves with what came back. */
function sendRaw(request: RawRequest): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const finish = () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('latin1');
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const [statusLine = '', ...headerLines] = head.split('\r\n');
      const status = /^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1];
      const headers: Record<string, string> = {};
      for (const line of headerLines) {
        const colon = line.indexOf(':');
        if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({ status: status ? Number(status) : null, headers, body: rest.join('\r\n\r\n') });
    };
    const timer = setTimeout(() => socket.destroy(), 20_000);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => {
      // The server may close early (e.g. 401 before reading a body): what came back still counts.
    });
    socket.on('close', finish);
    const lines = [`${request.method} ${request.target} HTTP/1.1`, `Host: 127.0.0.1:${port}`];
    for (const [name, value] of request.headers) lines.push(`${name}: ${value}`);
    lines.push('Connection: close', '', '');
    socket.write(Buffer.from(lines.join('\r\n'), 'latin1'));
    if (request.body.length > 0) socket.write(request.body);
    if (request.hangUp) socket.end();
  });
}

const base64 = (value: string) => Buffer.from(value, 'utf8').toString('base64');

describe('tus under hostile traffic', () => {
  it(`answers ${REQUESTS} hostile requests without a 5xx and leaves no orphan bytes or rows`, async () => {
    const rng = random(9);
    /** Uploads the attacker created, with the offset we believe they are at. */
    const own: { url: string; length: number; offset: number }[] = [];
    const victimUpload = await sendRaw({
      method: 'POST',
      target: '/api/uploads',
      headers: [
        ['Cookie', victim],
        ['Tus-Resumable', '1.0.0'],
        ['Upload-Length', '1000'],
      ],
      body: Buffer.alloc(0),
      hangUp: false,
    });
    expect(victimUpload.status).toBe(201);
    const victimUrl = victimUpload.headers.location ?? '';

    const lengths = [
      '10',
      '0',
      '1000',
      '-1',
      '1e3',
      '0x10',
      ' 10',
      '1.5',
      'abc',
      '',
      String(MAX_UPLOAD),
      String(MAX_UPLOAD + 1),
      String(QUOTA + 1),
      String(Number.MAX_SAFE_INTEGER),
      String(Number.MAX_SAFE_INTEGER + 2),
      '9'.repeat(40),
      '10, 20',
    ];
    const metadatas = [
      `filename ${base64('clip.mp4')}`,
      `filename ${base64('clip.mp4')},filetype ,purpose ${base64('source')}`,
      `filename ${base64('a\u0000b.mp4')}`,
      `filename ${base64('\u0000')},purpose ${base64('post')}`,
      `purpose ${base64('\u0000')}`,
      `purpose ${base64('root')}`,
      `filename ${base64('x'.repeat(300))}`,
      `filename ${base64('../../../etc/passwd')}`,
      `filename ${base64('clip\u202egpj.mp4')}`,
      `filename ${base64('\r\n\tclip.mp4')}`,
      `filetype ${base64('text/html; charset=<script>')}`,
      'filename !!!!',
      'filename',
      'filename a b',
      ',,,',
      ' ',
      `filename ${base64('a')},filename ${base64('b')}`,
      `${'k'.repeat(200)} ${base64('v')}`,
      Array.from({ length: 40 }, (_, index) => `k${index} ${base64('v')}`).join(','),
      `filename ${base64('x'.repeat(6000))}`,
      `fil\u00e9name ${base64('clip.mp4')}`,
      `filename ${Buffer.from([0xff, 0xfe, 0x00, 0xd8]).toString('base64')}`,
    ];
    const resumables = ['1.0.0', '1.0.0', '1.0.0', '0.2.2', '', '1.0.0, 1.0.0', 'x'.repeat(2000)];
    const contentTypes = [
      'application/offset+octet-stream',
      'application/offset+octet-stream',
      'application/json',
      'text/plain',
      'multipart/form-data; boundary=x',
      '',
    ];
    /** Mostly what a real client sends, else one of the hostile values. */
    const mostly = <TValue>(valid: TValue, hostile: readonly TValue[]): TValue =>
      rng.chance(0.75) ? valid : rng.pick(hostile);
    const cookies = () => mostly(attacker, [victim, 'cadence.session_token=forged', '', 'a=%ZZ']);

    const statuses = new Map<number | 'none', number>();
    const fiveHundreds: string[] = [];
    let sent = 0;

    const oneRequest = async (): Promise<void> => {
      const headers: [string, string][] = [];
      const cookie = cookies();
      if (cookie) headers.push(['Cookie', cookie]);
      if (!rng.chance(0.05)) headers.push(['Tus-Resumable', mostly('1.0.0', resumables)]);
      const existing = own.length > 0 ? rng.pick(own) : null;
      const kind = rng.int(10);
      let method: string;
      let target: string;
      let body = Buffer.alloc(0);
      let truncateAt: number | null = null;
      let hangUp = false;
      if (kind < 4) {
        // Creation, sometimes with the first bytes in it (creation-with-upload).
        method = 'POST';
        target = mostly('/api/uploads', ['/api/uploads/', '/api/uploads/x', '/api/uploads?x']);
        if (rng.chance(0.9)) {
          headers.push(['Upload-Length', mostly(rng.pick(['10', '1000', '50000', '0']), lengths)]);
        }
        if (rng.chance(0.05)) headers.push(['Upload-Defer-Length', rng.pick(['1', '0', 'yes'])]);
        if (rng.chance(0.05)) {
          headers.push([
            'Upload-Concat',
            rng.pick(['partial', `final;${victimUrl} /x`, 'final;', '?']),
          ]);
        }
        if (rng.chance(0.9)) {
          headers.push(['Upload-Metadata', mostly(rng.pick(metadatas.slice(0, 2)), metadatas)]);
        }
        if (rng.chance(0.2)) {
          body = Buffer.alloc(rng.pick([1, 10, 500, 5000]), 7);
          headers.push(['Content-Type', mostly(contentTypes[0]!, contentTypes)]);
        }
      } else if (kind < 8) {
        // Writing: own uploads at the right offset or not, others' uploads, made-up ones.
        method = 'PATCH';
        target = mostly(existing?.url ?? '/api/uploads/x', [
          victimUrl,
          '/api/uploads/..%2F..%2Fetc%2Fpasswd',
          `/api/uploads/${'a'.repeat(400)}`,
          '/api/uploads/%00',
          `${existing?.url ?? '/api/uploads/y'}?x=%00`,
        ]);
        const rightOffset = existing && target === existing.url ? existing.offset : 0;
        headers.push([
          'Upload-Offset',
          mostly(String(rightOffset), ['0', '-1', '1e2', 'abc', ' 0', '99999999999']),
        ]);
        if (rng.chance(0.95))
          headers.push(['Content-Type', mostly(contentTypes[0]!, contentTypes)]);
        if (rng.chance(0.08)) headers.push(['Upload-Length', rng.pick(lengths)]);
        const remaining = existing && target === existing.url ? existing.length - rightOffset : 0;
        const size = mostly(
          Math.min(Math.max(remaining, 0), rng.pick([10, 1000, 20_000])),
          [0, 1, 100, 4096, 70_000],
        );
        body = Buffer.alloc(size, 9);
        if (rng.chance(0.05)) truncateAt = rng.int(body.length + 1);
      } else if (kind < 9) {
        method = 'HEAD';
        target = rng.pick([existing?.url ?? '/api/uploads/x', victimUrl, '/api/uploads/%2e%2e']);
      } else {
        method = rng.pick(['DELETE', 'OPTIONS', 'GET', 'PUT', 'TRACE']);
        target = rng.pick([
          existing?.url ?? '/api/uploads/x',
          victimUrl,
          '/api/uploads',
          '/api/uploads/a/b/c',
        ]);
      }
      const lengthChoice = rng.int(10);
      if (body.length > 0 || method === 'PATCH' || lengthChoice === 0) {
        if (truncateAt !== null) {
          // The whole body announced, part of it sent, then the client is gone.
          headers.push(['Content-Length', String(body.length)]);
          body = body.subarray(0, truncateAt);
          hangUp = true;
        } else if (lengthChoice === 1 && body.length > 0) {
          headers.push(['Transfer-Encoding', 'chunked']);
          body = Buffer.concat([
            Buffer.from(`${body.length.toString(16)}\r\n`),
            body,
            Buffer.from(rng.chance(0.5) ? '\r\n0\r\n\r\n' : '\r\nzz\r\n'),
          ]);
        } else {
          const announced = mostly(body.length, [body.length + 5, Math.max(0, body.length - 5)]);
          headers.push(['Content-Length', String(announced)]);
          // Announced more than it sends: it can only give up waiting.
          hangUp = announced > body.length;
        }
      }
      if (rng.chance(0.03)) headers.push(['X-HTTP-Method-Override', rng.pick(['DELETE', 'PATCH'])]);
      if (rng.chance(0.03)) headers.push(['Origin', 'https://evil.example']);

      const answer = await sendRaw({ method, target, headers, body, hangUp });
      sent++;
      statuses.set(answer.status ?? 'none', (statuses.get(answer.status ?? 'none') ?? 0) + 1);
      if ((answer.status === null && !hangUp) || (answer.status ?? 0) >= 500) {
        fiveHundreds.push(
          `${method} ${target.slice(0, 60)} ${JSON.stringify(headers).slice(0, 300)} ${body.length}B` +
            `${hangUp ? ' (hung up)' : ''} → ${answer.status} ${answer.body.slice(0, 100)}`,
        );
      }
      if (method === 'POST' && answer.status === 201 && cookie === attacker) {
        const length = Number(headers.find(([name]) => name === 'Upload-Length')?.[1]);
        own.push({
          url: answer.headers.location ?? '',
          length,
          offset: Number(answer.headers['upload-offset'] ?? 0),
        });
      }
      if (existing && target === existing.url && answer.headers['upload-offset'] !== undefined) {
        existing.offset = Number(answer.headers['upload-offset']);
      }
    };

    // A few at a time, so requests on the same upload also meet each other's locks.
    const workers = Array.from({ length: 6 }, async () => {
      while (sent < REQUESTS) await oneRequest();
    });
    await Promise.all(workers);

    console.info('tus fuzz statuses', Object.fromEntries([...statuses].sort()));
    expect(sent).toBeGreaterThanOrEqual(REQUESTS);
    expect(fiveHundreds).toEqual([]);
    expect(errorLogs).toEqual([]);
    // The fuzz made real uploads too: the check below is about something.
    expect(own.length).toBeGreaterThan(20);

    await expectNoOrphans();
    // Nobody got more than their quota, whatever they sent.
    const db = context.database.db;
    const stored = await db
      .selectFrom('media')
      .select(['user_id', 'size_bytes as bytes'])
      .unionAll(db.selectFrom('upload_reservations').select(['user_id', 'declared_bytes as bytes']))
      .execute();
    const perUser = new Map<string, number>();
    for (const row of stored) perUser.set(row.user_id, (perUser.get(row.user_id) ?? 0) + row.bytes);
    for (const used of perUser.values()) expect(used).toBeLessThanOrEqual(QUOTA);
    // Every request over real sockets, beside the other test files: a bound, not a target.
  }, 180_000);
});

/** Every staged upload has its reservation and the other way round; every media row its file. */
async function expectNoOrphans(): Promise<void> {
  const mediaRoot = path.join(dataDir, 'media');
  const staged = await readdir(path.join(mediaRoot, '.tus-uploads')).catch(() => []);
  const stagedIds = staged.filter((name) => !name.endsWith('.json')).sort();
  const stagedInfo = staged
    .filter((name) => name.endsWith('.json'))
    .map((name) => name.slice(0, -'.json'.length))
    .sort();
  const db = context.database.db;
  const reservations = (await db.selectFrom('upload_reservations').select('upload_id').execute())
    .map((row) => row.upload_id)
    .sort();
  expect(stagedInfo).toEqual(stagedIds);
  expect(stagedIds).toEqual(reservations);

  const media = await db.selectFrom('media').select(['storage_key', 'thumbnail_key']).execute();
  const keys = media.flatMap((row) => [
    row.storage_key,
    ...(row.thumbnail_key ? [row.thumbnail_key] : []),
  ]);
  const files = (await readdir(path.join(mediaRoot, 'users'), { recursive: true }).catch(() => []))
    .map((name) => `users/${name}`)
    .filter((name) => /\.[a-z0-9]+$/.test(name));
  expect(files.sort()).toEqual(keys.sort());
}
