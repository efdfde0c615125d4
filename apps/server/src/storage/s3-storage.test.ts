import { createHash, randomBytes } from 'node:crypto';
import { access, readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { S3Store } from '@tus/s3-store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempDir } from '../test-support/media-fixtures.ts';
import { S3Storage, toRangeHeader } from './s3-storage.ts';

/**
 * No S3 server runs here, so the SDK's HTTP layer is replaced by an in-memory bucket that speaks
 * the few S3 REST calls we use. The SDK still builds, signs and parses real requests and
 * responses; only the socket is missing.
 */
interface RecordedRequest {
  method: string;
  hostname: string;
  path: string;
  query: Record<string, unknown>;
  headers: Record<string, string>;
  bodyBytes: number;
}

interface FakeRequest {
  method: string;
  hostname: string;
  path: string;
  query?: Record<string, unknown>;
  headers: Record<string, string>;
  body?: unknown;
}

async function bodyBytes(body: unknown): Promise<Buffer> {
  if (body === undefined || body === null) return Buffer.alloc(0);
  if (typeof body === 'string') return Buffer.from(body);
  if (body instanceof Uint8Array) return Buffer.from(body);
  if (body instanceof Readable) return buffer(body);
  throw new Error(`unexpected request body ${typeof body}`);
}

class FakeS3 {
  readonly objects = new Map<string, Buffer>();
  readonly requests: RecordedRequest[] = [];
  private readonly uploads = new Map<string, { key: string; parts: Map<number, Buffer> }>();
  private nextUploadId = 1;

  constructor(
    private readonly bucket: string,
    private readonly pathStyle: boolean,
  ) {}

  /** The SDK's requestHandler contract: handle(request) → { response }. */
  readonly handler = {
    handle: async (request: FakeRequest) => {
      const body = await bodyBytes(request.body);
      const query = request.query ?? {};
      this.requests.push({
        method: request.method,
        hostname: request.hostname,
        path: request.path,
        query,
        headers: request.headers,
        bodyBytes: body.length,
      });
      return { response: this.route(request, query, body) };
    },
    updateHttpClientConfig: () => undefined,
    httpHandlerConfigs: () => ({}),
  };

  private keyOf(request: FakeRequest): string {
    const path = decodeURIComponent(request.path.replace(/^\//, ''));
    return this.pathStyle ? path.replace(new RegExp(`^${this.bucket}/?`), '') : path;
  }

  private route(request: FakeRequest, query: Record<string, unknown>, body: Buffer) {
    const key = this.keyOf(request);
    const header = (name: string) => request.headers[name] ?? request.headers[name.toLowerCase()];
    switch (request.method) {
      case 'PUT': {
        if ('partNumber' in query && 'uploadId' in query) {
          const upload = this.uploads.get(String(query.uploadId));
          if (!upload) return xmlError(404, 'NoSuchUpload');
          upload.parts.set(Number(query.partNumber), body);
          return reply(200, '', { etag: `"part-${String(query.partNumber)}"` });
        }
        const copySource = header('x-amz-copy-source');
        if (copySource) {
          const sourceKey = decodeURIComponent(copySource).replace(`${this.bucket}/`, '');
          const source = this.objects.get(sourceKey);
          if (!source) return xmlError(404, 'NoSuchKey');
          this.objects.set(key, source);
          return reply(200, '<CopyObjectResult><ETag>"copy"</ETag></CopyObjectResult>');
        }
        this.objects.set(key, body);
        return reply(200, '', { etag: '"object"' });
      }
      case 'POST': {
        if ('uploads' in query) {
          const uploadId = `upload-${this.nextUploadId++}`;
          this.uploads.set(uploadId, { key, parts: new Map() });
          return reply(
            200,
            `<InitiateMultipartUploadResult><Bucket>${this.bucket}</Bucket><Key>${key}</Key>` +
              `<UploadId>${uploadId}</UploadId></InitiateMultipartUploadResult>`,
          );
        }
        if ('uploadId' in query) {
          const upload = this.uploads.get(String(query.uploadId));
          if (!upload) return xmlError(404, 'NoSuchUpload');
          const numbers = [...upload.parts.keys()].sort((a, b) => a - b);
          this.objects.set(
            upload.key,
            Buffer.concat(numbers.map((number) => upload.parts.get(number) ?? Buffer.alloc(0))),
          );
          this.uploads.delete(String(query.uploadId));
          return reply(
            200,
            `<CompleteMultipartUploadResult><Key>${upload.key}</Key><ETag>"done"</ETag></CompleteMultipartUploadResult>`,
          );
        }
        if ('delete' in query) {
          for (const [, deleted] of body.toString().matchAll(/<Key>([^<]*)<\/Key>/g)) {
            if (deleted !== undefined) this.objects.delete(deleted);
          }
          return reply(200, '<DeleteResult></DeleteResult>');
        }
        return xmlError(400, 'InvalidRequest');
      }
      case 'GET': {
        const object = this.objects.get(key);
        if (!object) return xmlError(404, 'NoSuchKey');
        const range = /^bytes=(\d+)-(\d*)$/.exec(header('range') ?? '');
        if (!range) return reply(200, object, { 'content-length': String(object.length) });
        const start = Number(range[1]);
        const end = range[2] ? Math.min(Number(range[2]), object.length - 1) : object.length - 1;
        if (start >= object.length) return xmlError(416, 'InvalidRange');
        const slice = object.subarray(start, end + 1);
        return reply(206, slice, {
          'content-length': String(slice.length),
          'content-range': `bytes ${start}-${end}/${object.length}`,
        });
      }
      case 'HEAD': {
        const object = this.objects.get(key);
        if (!object) return reply(404, '');
        return reply(200, '', { 'content-length': String(object.length) });
      }
      case 'DELETE': {
        if ('uploadId' in query) {
          this.uploads.delete(String(query.uploadId));
          return reply(204, '');
        }
        this.objects.delete(key);
        return reply(204, '');
      }
      default:
        return xmlError(405, 'MethodNotAllowed');
    }
  }

  get openMultipartUploads(): number {
    return this.uploads.size;
  }
}

function reply(statusCode: number, body: string | Buffer, headers: Record<string, string> = {}) {
  return { statusCode, headers, body: Readable.from([Buffer.from(body)]) };
}

function xmlError(statusCode: number, code: string) {
  return reply(statusCode, `<Error><Code>${code}</Code><Message>${code}</Message></Error>`, {
    'content-type': 'application/xml',
  });
}

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
