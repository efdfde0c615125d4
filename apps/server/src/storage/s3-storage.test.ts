import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { access, readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { buffer } from 'node:stream/consumers';
import { S3Store } from '@tus/s3-store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempDir } from '../test-support/media-fixtures.ts';
import { FakeS3 } from '../test-support/fake-s3.ts';
import { S3Storage, toRangeHeader } from './s3-storage.ts';

const BUCKET = 'cadence-media';
const KEY = 'users/u1/media/m1.mp4';
const MiB = 1024 * 1024;

let fake: FakeS3;
let storage: S3Storage;
let tmp: string;
let cleanupTmp: () => Promise<void>;

function makeStorage(pathStyle: boolean): S3Storage {
  fake = new FakeS3(BUCKET, pathStyle);
  return new S3Storage({
    endpoint: 'http://s3.test:9000',
    region: 'us-east-1',
    bucket: BUCKET,
    accessKeyId: 'test-key',
    secretAccessKey: 'test-secret',
    forcePathStyle: pathStyle,
    tmpDir: tmp,
    partSizeBytes: 5 * MiB,
    clientOverrides: { requestHandler: fake.handler, maxAttempts: 1 },
  });
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

beforeEach(async () => {
  ({ dir: tmp, cleanup: cleanupTmp } = await createTempDir('cadence-s3-test-'));
  storage = makeStorage(true);
});
afterEach(async () => {
  await cleanupTmp();
});

describe('S3Storage (SDK against an in-memory bucket)', () => {
  it('refuses unsafe keys before sending anything', async () => {
    for (const key of ['../x.mp4', '/abs.mp4', 'a//b', '']) {
      expect(
        await rejection(storage.put(key, Readable.from([Buffer.from('x')]), { contentType: 'x' })),
      ).toMatchObject({ code: 'invalid_key' });
      expect(await rejection(storage.stat(key))).toMatchObject({ code: 'invalid_key' });
    }
    expect(fake.requests).toEqual([]);
  });

  it('stores a small file with one signed PutObject, path-style, with its content type', async () => {
    const content = Buffer.from('small video');
    expect(await storage.put(KEY, Readable.from([content]), { contentType: 'video/mp4' })).toEqual({
      size: content.length,
    });
    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request).toMatchObject({
      method: 'PUT',
      hostname: 's3.test',
      path: `/${BUCKET}/${KEY}`,
      bodyBytes: content.length,
    });
    expect(request?.headers['content-type']).toBe('video/mp4');
    expect(request?.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=test-key\//);
    expect(fake.objects.get(KEY)).toEqual(content);
  });

  it('uses virtual-hosted URLs when path style is off', async () => {
    storage = makeStorage(false);
    await storage.put(KEY, Readable.from([Buffer.from('x')]), { contentType: 'video/mp4' });
    expect(fake.requests[0]).toMatchObject({ hostname: `${BUCKET}.s3.test`, path: `/${KEY}` });
  });

  it('streams a large file as multipart parts of at most one part size each', async () => {
    const content = randomBytes(12 * MiB + 123);
    const chunks = Array.from({ length: Math.ceil(content.length / (64 * 1024)) }, (_, index) =>
      content.subarray(index * 64 * 1024, (index + 1) * 64 * 1024),
    );
    await storage.put(KEY, Readable.from(chunks), { contentType: 'video/mp4' });
    const calls = fake.requests.map((request) =>
      request.method === 'PUT' ? `PUT part ${String(request.query.partNumber)}` : request.method,
    );
    expect(calls).toEqual(['POST', 'PUT part 1', 'PUT part 2', 'PUT part 3', 'POST']);
    const partSizes = fake.requests.filter((r) => r.method === 'PUT').map((r) => r.bodyBytes);
    for (const size of partSizes) expect(size).toBeLessThan(5 * MiB + 64 * 1024);
    const stored = fake.objects.get(KEY) ?? Buffer.alloc(0);
    expect(createHash('sha256').update(stored).digest('hex')).toBe(
      createHash('sha256').update(content).digest('hex'),
    );
  });

  it('aborts the multipart upload when the source stream fails', async () => {
    let sent = 0;
    const failing = new Readable({
      read() {
        if (sent >= 6 * MiB) {
          this.destroy(new Error('client went away'));
          return;
        }
        sent += MiB;
        this.push(Buffer.alloc(MiB));
      },
    });
    await expect(storage.put(KEY, failing, { contentType: 'video/mp4' })).rejects.toThrow(
      'client went away',
    );
    expect(fake.requests.at(-1)).toMatchObject({ method: 'DELETE' });
    expect(fake.requests.at(-1)?.query).toHaveProperty('uploadId');
    expect(fake.openMultipartUploads).toBe(0);
    expect(fake.objects.has(KEY)).toBe(false);
  });

  it('reads ranges with an HTTP Range header, stats and deletes', async () => {
    const content = Buffer.from(Array.from({ length: 1000 }, (_, index) => index % 256));
    await storage.put(KEY, Readable.from([content]), { contentType: 'video/mp4' });
    expect(await buffer(await storage.createReadStream(KEY, { start: 10, end: 19 }))).toEqual(
      content.subarray(10, 20),
    );
    expect(fake.requests.at(-1)?.headers.range).toBe('bytes=10-19');
    expect(await buffer(await storage.createReadStream(KEY))).toEqual(content);
    expect(await storage.stat(KEY)).toEqual({ size: 1000 });

    await storage.delete(KEY);
    expect(await storage.stat(KEY)).toBeNull();
    expect(await rejection(storage.createReadStream(KEY))).toMatchObject({ code: 'not_found' });
  });

  it('downloads to a temporary file for ffmpeg and removes it afterwards', async () => {
    const content = randomBytes(1024);
    await storage.put(KEY, Readable.from([content]), { contentType: 'video/mp4' });
    let seenPath = '';
    const read = await storage.withLocalFile(KEY, async (path) => {
      seenPath = path;
      return readFile(path);
    });
    expect(read).toEqual(content);
    expect(seenPath.startsWith(tmp)).toBe(true);
    expect(seenPath.endsWith('.mp4')).toBe(true);
    await expect(access(seenPath)).rejects.toThrow();
  });

  it('adopts a finished tus upload: copies it to the media key and deletes the upload and its .info', async () => {
    fake.objects.set('abc123', Buffer.from('uploaded'));
    fake.objects.set('abc123.info', Buffer.from('{}'));
    await storage.adoptTusUpload('abc123', KEY);
    expect([...fake.objects.keys()]).toEqual([KEY]);
    expect(fake.objects.get(KEY)?.toString()).toBe('uploaded');
    expect(await rejection(storage.adoptTusUpload('missing', KEY))).toMatchObject({
      code: 'not_found',
    });
  });

  it('creates an S3Store datastore for tus', () => {
    expect(storage.createTusDatastore()).toBeInstanceOf(S3Store);
  });
});

describe('toRangeHeader', () => {
  it('formats open and closed ranges', () => {
    expect(toRangeHeader({ start: 0, end: 99 })).toBe('bytes=0-99');
    expect(toRangeHeader({ start: 500 })).toBe('bytes=500-');
    expect(toRangeHeader(undefined)).toBeUndefined();
  });
});

describe('S3Storage in a server process', () => {
  // A self-hoster on Node 20 (the README's promise) read at every start that the SDK wants Node 22.
  it('starts without telling the logs to upgrade Node', async () => {
    const script = `
      import { S3Storage } from ${JSON.stringify(new URL('./s3-storage.ts', import.meta.url).pathname)};
      const storage = new S3Storage({ endpoint: 'http://127.0.0.1:9', region: 'us-east-1',
        bucket: 'b', accessKeyId: 'k', secretAccessKey: 's' });
      storage.createTusDatastore();
      process.emitWarning('a warning of our own, to show warnings are printed');`;
    const env = { ...process.env };
    delete env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED;
    const { stderr } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      { env, timeout: 30_000 },
    );
    expect(stderr).toContain('a warning of our own');
    expect(stderr).not.toMatch(/NodeVersionSupportWarning|require node >=/u);
  });
});
