import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileStore } from '@tus/file-store';
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { registerErrorHandler } from '../../lib/app-error.ts';
import type { TusUploadsOptions, Upload } from './tus.ts';
import { ownerOfUpload, TusHookError, tusUploads, uploadIdFor } from './tus.ts';

const MiB = 1024 * 1024;
const PATH = '/api/uploads';

interface RunningApp {
  app: FastifyInstance;
  baseUrl: string;
  finished: { userId: string; upload: Upload }[];
}

let directory = '';
const running = new Set<FastifyInstance>();

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'cadence-tus-'));
});

afterEach(async () => {
  await Promise.all([...running].map((app) => app.close()));
  running.clear();
  await rm(directory, { recursive: true, force: true });
});

/** A real HTTP server on an ephemeral port; the test "session" is the x-test-user header. */
async function startApp(overrides: Partial<TusUploadsOptions> = {}): Promise<RunningApp> {
  const finished: RunningApp['finished'] = [];
  const app = Fastify();
  registerErrorHandler(app);
  await app.register(tusUploads, {
    datastore: new FileStore({ directory }),
    path: PATH,
    maxSizeBytes: 25 * MiB,
    getUserId: (request) => {
      const user = request.headers['x-test-user'];
      return Promise.resolve(typeof user === 'string' ? user : null);
    },
    onUploadFinished: (userId, upload) => {
      finished.push({ userId, upload });
      return Promise.resolve();
    },
    ...overrides,
  });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  running.add(app);
  return { app, baseUrl: address, finished };
}

async function stopApp({ app }: RunningApp): Promise<void> {
  await app.close();
  running.delete(app);
}

function tusHeaders(user: string | null, extra: Record<string, string> = {}) {
  return { 'Tus-Resumable': '1.0.0', ...(user ? { 'x-test-user': user } : {}), ...extra };
}

async function createUpload(baseUrl: string, user: string | null, headers: Record<string, string>) {
  return fetch(`${baseUrl}${PATH}`, { method: 'POST', headers: tusHeaders(user, headers) });
}

async function patch(url: string, user: string | null, offset: number, body: Uint8Array) {
  return fetch(url, {
    method: 'PATCH',
    headers: tusHeaders(user, {
      'Upload-Offset': String(offset),
      'Content-Type': 'application/offset+octet-stream',
    }),
    body,
  });
}

async function head(url: string, user: string | null) {
  return fetch(url, { method: 'HEAD', headers: tusHeaders(user) });
}

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met before the deadline');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function sizeOnDisk(path: string): Promise<number> {
  return stat(path).then(
    (s) => s.size,
    () => 0,
  );
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/**
 * Starts a PATCH that announces `declared` bytes, sends `sent` of them and then waits:
 * the returned `abort` drops the connection like a closed laptop lid.
 */
async function startPatchThenStall(url: string, user: string, offset: number, data: Buffer) {
  const request = http.request(url, {
    method: 'PATCH',
    headers: {
      ...tusHeaders(user, {
        'Upload-Offset': String(offset),
        'Content-Type': 'application/offset+octet-stream',
      }),
      'Content-Length': String(5 * MiB),
    },
  });
  request.on('error', () => {
    // Expected once we abort.
  });
  for (let position = 0; position < data.length; position += 64 * 1024) {
    const piece = data.subarray(position, position + 64 * 1024);
    if (!request.write(piece)) await new Promise((resolve) => request.once('drain', resolve));
  }
  return { abort: () => request.destroy() };
}

describe('tus uploads', () => {
  it('resumes a 20 MB upload after the server restarts mid-chunk, bytes intact', async () => {
    const video = randomBytes(20 * MiB);
    const first = await startApp();

    const created = await createUpload(first.baseUrl, 'user-a', {
      'Upload-Length': String(video.length),
      'Upload-Metadata': `filename ${Buffer.from('clip.mp4').toString('base64')}`,
    });
    expect(created.status).toBe(201);
    const location = created.headers.get('location') ?? '';
    expect(location).toMatch(/^\/api\/uploads\/user-a-[a-f0-9]{32}$/);
    const uploadId = location.split('/').at(-1) ?? '';
    const filePath = join(directory, uploadId);

    for (const chunk of [0, 1]) {
      const offset = chunk * 5 * MiB;
      const response = await patch(
        `${first.baseUrl}${location}`,
        'user-a',
        offset,
        video.subarray(offset, offset + 5 * MiB),
      );
      expect(response.status).toBe(204);
      expect(response.headers.get('upload-offset')).toBe(String(offset + 5 * MiB));
    }

    // Third chunk: 2 MB go out, then the connection dies. Bytes reach the disk while the request
    // is still open, so the datastore streams rather than buffering whole chunks in memory.
    const stalled = await startPatchThenStall(
      `${first.baseUrl}${location}`,
      'user-a',
      10 * MiB,
      video.subarray(10 * MiB, 12 * MiB),
    );
    await waitFor(async () => (await sizeOnDisk(filePath)) >= 11 * MiB);
    stalled.abort();
    await stopApp(first);
    expect(first.finished).toEqual([]);

    const second = await startApp();
    const probe = await head(`${second.baseUrl}${location}`, 'user-a');
    expect(probe.status).toBe(200);
    expect(probe.headers.get('upload-length')).toBe(String(video.length));
    const resumeAt = Number(probe.headers.get('upload-offset'));
    expect(resumeAt).toBeGreaterThanOrEqual(11 * MiB);
    expect(resumeAt).toBeLessThanOrEqual(12 * MiB);
    expect(resumeAt).toBe(await sizeOnDisk(filePath));

    let offset = resumeAt;
    while (offset < video.length) {
      const chunk = video.subarray(offset, offset + 5 * MiB);
      const response = await patch(`${second.baseUrl}${location}`, 'user-a', offset, chunk);
      expect(response.status).toBe(204);
      offset += chunk.length;
      expect(response.headers.get('upload-offset')).toBe(String(offset));
    }

    expect(sha256(await readFile(filePath))).toBe(sha256(video));
    expect(second.finished).toHaveLength(1);
    const [done] = second.finished;
    expect(done?.userId).toBe('user-a');
    expect(done?.upload).toMatchObject({
      id: uploadId,
      size: video.length,
      offset: video.length,
      metadata: { filename: 'clip.mp4' },
      storage: { type: 'file', path: filePath },
    });
  });

  it("refuses another user's HEAD, PATCH and DELETE and leaves the upload untouched", async () => {
    const { baseUrl } = await startApp();
    const created = await createUpload(baseUrl, 'user-a', { 'Upload-Length': String(MiB) });
    const url = `${baseUrl}${created.headers.get('location') ?? ''}`;
    expect((await patch(url, 'user-a', 0, randomBytes(1000))).status).toBe(204);

    expect((await head(url, 'user-b')).status).toBe(403);
    expect((await patch(url, 'user-b', 1000, randomBytes(1000))).status).toBe(403);
    // A user id that is a prefix of the owner's is someone else too.
    expect((await head(url, 'user')).status).toBe(403);
    const deleted = await fetch(url, { method: 'DELETE', headers: tusHeaders('user-b') });
    expect(deleted.status).toBe(403);

    const probe = await head(url, 'user-a');
    expect(probe.status).toBe(200);
    expect(probe.headers.get('upload-offset')).toBe('1000');
  });

  it('answers 401 without a session and creates nothing', async () => {
    const { baseUrl } = await startApp();
    const created = await createUpload(baseUrl, null, { 'Upload-Length': String(MiB) });
    expect(created.status).toBe(401);
    expect(await created.json()).toMatchObject({ code: 'unauthenticated' });
    const ownUpload = await createUpload(baseUrl, 'user-a', { 'Upload-Length': String(MiB) });
    const url = `${baseUrl}${ownUpload.headers.get('location') ?? ''}`;
    expect((await head(url, null)).status).toBe(401);
    expect((await patch(url, null, 0, randomBytes(MiB))).status).toBe(401);
    expect((await head(url, 'user-a')).headers.get('upload-offset')).toBe('0');
    expect((await readdir(directory)).filter((name) => !name.endsWith('.json'))).toHaveLength(1);
  });

  it('lets the owner terminate an upload, which removes its bytes', async () => {
    const { baseUrl } = await startApp();
    const created = await createUpload(baseUrl, 'user-a', { 'Upload-Length': String(MiB) });
    const url = `${baseUrl}${created.headers.get('location') ?? ''}`;
    await patch(url, 'user-a', 0, randomBytes(4096));
    const deleted = await fetch(url, { method: 'DELETE', headers: tusHeaders('user-a') });
    expect(deleted.status).toBe(204);
    expect((await head(url, 'user-a')).status).toBe(404);
    expect(await readdir(directory)).toEqual([]);
  });

  it('refuses uploads above the size limit, and sizes not declared up front', async () => {
    const { baseUrl } = await startApp({ maxSizeBytes: MiB });
    const declared = await createUpload(baseUrl, 'user-a', { 'Upload-Length': String(MiB + 1) });
    expect(declared.status).toBe(413);
    expect(await readdir(directory)).toEqual([]);

    // A deferred length could grow past what was checked (the limit, the quota) at creation.
    const deferred = await createUpload(baseUrl, 'user-a', { 'Upload-Defer-Length': '1' });
    expect(deferred.status).toBe(400);
    expect(await readdir(directory)).toEqual([]);

    const created = await createUpload(baseUrl, 'user-a', { 'Upload-Length': '10' });
    const url = `${baseUrl}${created.headers.get('location') ?? ''}`;
    const tooMuch = await patch(url, 'user-a', 0, randomBytes(11));
    expect(tooMuch.status).toBe(413);
    expect(await sizeOnDisk(join(directory, url.split('/').at(-1) ?? ''))).toBe(0);
  });

  it('answers a wrong Upload-Offset with 409 Conflict, before any write hook refuses it', async () => {
    // Like the quota hook of routes.ts: refuses a PATCH whose offset + body pass the declared size.
    const { baseUrl } = await startApp({
      onUploadWrite: (_userId, _uploadId, write) =>
        write.offset + (write.length ?? 0) > 10
          ? Promise.reject(new TusHookError(413, 'past the declared length\n'))
          : Promise.resolve(),
    });
    const created = await createUpload(baseUrl, 'user-a', { 'Upload-Length': '10' });
    const url = `${baseUrl}${created.headers.get('location') ?? ''}`;
    expect((await patch(url, 'user-a', 0, Buffer.from('abcd'))).status).toBe(204);

    // A client resuming from a stale offset, ahead of or behind the stored 4 bytes.
    for (const offset of [8, 2, 0]) {
      const stale = await patch(url, 'user-a', offset, Buffer.from('efghij'));
      expect(stale.status).toBe(409);
    }
    const probe = await head(url, 'user-a');
    expect(probe.headers.get('upload-offset')).toBe('4');
    expect((await patch(url, 'user-a', 4, Buffer.from('efghij'))).status).toBe(204);
    expect(await readFile(join(directory, url.split('/').at(-1) ?? ''), 'utf8')).toBe('abcdefghij');
  });

  it('answers 400, not 501, to the extensions it does not offer', async () => {
    const { baseUrl } = await startApp();
    for (const concat of ['partial', `final;${PATH}/a ${PATH}/b`]) {
      const response = await createUpload(baseUrl, 'user-a', {
        'Upload-Length': '10',
        'Upload-Concat': concat,
      });
      expect(response.status).toBe(400);
      expect(await response.text()).toContain('Upload-Concat');
    }
    expect(await readdir(directory)).toEqual([]);
    const options = await fetch(`${baseUrl}${PATH}`, { method: 'OPTIONS' });
    expect(options.headers.get('tus-extension')).toBe(
      'creation,creation-with-upload,termination,expiration',
    );
  });

  it('leaves bodies to tus: a JSON content type is not parsed by Fastify', async () => {
    const { baseUrl } = await startApp();
    const created = await createUpload(baseUrl, 'user-a', { 'Upload-Length': '10' });
    const url = `${baseUrl}${created.headers.get('location') ?? ''}`;
    const response = await fetch(url, {
      method: 'PATCH',
      headers: tusHeaders('user-a', { 'Upload-Offset': '0', 'Content-Type': 'application/json' }),
      body: '{"not":"json',
    });
    expect(response.status).toBe(400);
    expect((await head(url, 'user-a')).headers.get('upload-offset')).toBe('0');
  });

  it('answers 500 without internals when the finishing hook fails', async () => {
    const { baseUrl } = await startApp({
      onUploadFinished: () => Promise.reject(new Error('database password is hunter2')),
    });
    const created = await createUpload(baseUrl, 'user-a', { 'Upload-Length': '5' });
    const url = `${baseUrl}${created.headers.get('location') ?? ''}`;
    const response = await patch(url, 'user-a', 0, Buffer.from('hello'));
    expect(response.status).toBe(500);
    expect(await response.text()).not.toContain('hunter2');
  });

  it('passes a refusal from the finishing hook on to the client', async () => {
    const { baseUrl } = await startApp({
      // The shape tus expects from hooks that refuse a request.
      onUploadFinished: () =>
        Promise.reject(
          Object.assign(new Error('refused'), { status_code: 415, body: 'errors.notAVideo\n' }),
        ),
    });
    const created = await createUpload(baseUrl, 'user-a', { 'Upload-Length': '5' });
    const url = `${baseUrl}${created.headers.get('location') ?? ''}`;
    const response = await patch(url, 'user-a', 0, Buffer.from('hello'));
    expect(response.status).toBe(415);
    expect(await response.text()).toBe('errors.notAVideo\n');
  });

  it('describes itself to OPTIONS without a session', async () => {
    const { baseUrl } = await startApp();
    const response = await fetch(`${baseUrl}${PATH}`, { method: 'OPTIONS' });
    expect(response.status).toBe(204);
    expect(response.headers.get('tus-max-size')).toBe(String(25 * MiB));
    expect(response.headers.get('tus-extension')).toContain('termination');
  });
});

describe('upload ids', () => {
  it('name the owner unambiguously, even for user ids with dashes', () => {
    const suffix = 'a'.repeat(32);
    expect(ownerOfUpload(uploadIdFor('user-a', suffix))).toBe('user-a');
    expect(ownerOfUpload(uploadIdFor('0b7f3c9e-5a4d-4e2b-9c1f-2d3e4f5a6b7c', suffix))).toBe(
      '0b7f3c9e-5a4d-4e2b-9c1f-2d3e4f5a6b7c',
    );
    expect(ownerOfUpload('not-an-upload')).toBeNull();
    expect(() => uploadIdFor('../etc', suffix)).toThrow(TypeError);
  });
});
