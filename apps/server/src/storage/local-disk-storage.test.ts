import { createHash, randomBytes } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { Upload } from '@tus/server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempDir } from '../test-support/media-fixtures.ts';
import { LocalDiskStorage } from './local-disk-storage.ts';
import { StorageError, putLocalFile } from './media-storage.ts';

let root: string;
let cleanup: () => Promise<void>;
let storage: LocalDiskStorage;

beforeEach(async () => {
  ({ dir: root, cleanup } = await createTempDir('cadence-storage-'));
  storage = new LocalDiskStorage(join(root, 'media'));
});
afterEach(async () => {
  await cleanup();
});

const KEY = 'users/u1/media/m1.mp4';
const pattern = Buffer.from(Array.from({ length: 1000 }, (_, index) => index % 256));

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe('LocalDiskStorage', () => {
  it('streams 50 MB through put and back unchanged, writing to disk as it reads', async () => {
    const total = 50 * 1024 * 1024;
    const chunkSize = 256 * 1024;
    const sourceHash = createHash('sha256');
    const directory = join(root, 'media', 'users', 'u1', 'media');
    let produced = 0;
    let largestLag = 0;
    const source = new Readable({
      read() {
        void (async () => {
          // Every 4 MB, compare what we produced with what already reached the disk: a
          // put() that buffered the whole file would lag by everything produced so far.
          if (produced > 0 && produced % (4 * 1024 * 1024) === 0) {
            const partials = (await readdir(directory)).filter((name) => name.endsWith('.partial'));
            const written = partials[0] ? (await stat(join(directory, partials[0]))).size : 0;
            largestLag = Math.max(largestLag, produced - written);
          }
          if (produced >= total) {
            this.push(null);
            return;
          }
          const chunk = randomBytes(chunkSize);
          sourceHash.update(chunk);
          produced += chunk.length;
          this.push(chunk);
        })();
      },
    });

    const { size } = await storage.put(KEY, source, { contentType: 'video/mp4' });
    expect(size).toBe(total);
    expect(largestLag).toBeLessThan(8 * 1024 * 1024);
    expect(await storage.stat(KEY)).toEqual({ size: total });

    const readHash = createHash('sha256');
    for await (const chunk of await storage.createReadStream(KEY)) {
      readHash.update(chunk as Buffer);
    }
    expect(readHash.digest('hex')).toBe(sourceHash.digest('hex'));
  });

  it('reads inclusive byte ranges, as HTTP Range asks for them', async () => {
    await storage.put(KEY, Readable.from([pattern]), { contentType: 'video/mp4' });
    expect(await buffer(await storage.createReadStream(KEY, { start: 10, end: 19 }))).toEqual(
      pattern.subarray(10, 20),
    );
    expect(await buffer(await storage.createReadStream(KEY, { start: 990 }))).toEqual(
      pattern.subarray(990),
    );
    expect(await buffer(await storage.createReadStream(KEY, { start: 995, end: 5000 }))).toEqual(
      pattern.subarray(995),
    );
    for (const range of [{ start: 1000 }, { start: 20, end: 10 }, { start: -1 }]) {
      expect(await rejection(storage.createReadStream(KEY, range))).toMatchObject({
        code: 'invalid_range',
      });
    }
  });

  it('deletes idempotently, after which the object is gone', async () => {
    await storage.put(KEY, Readable.from([pattern]), { contentType: 'video/mp4' });
    await storage.delete(KEY);
    expect(await storage.stat(KEY)).toBeNull();
    await storage.delete(KEY);
    expect(await rejection(storage.createReadStream(KEY))).toMatchObject({ code: 'not_found' });
  });

  it('replaces an object atomically and keeps the old one when the new stream fails', async () => {
    await storage.put(KEY, Readable.from([pattern]), { contentType: 'video/mp4' });
    const failing = new Readable({
      read() {
        this.push(Buffer.alloc(1024));
        this.destroy(new Error('client went away'));
      },
    });
    await expect(storage.put(KEY, failing, { contentType: 'video/mp4' })).rejects.toThrow(
      'client went away',
    );
    expect(await buffer(await storage.createReadStream(KEY))).toEqual(pattern);
    const leftovers = await readdir(join(root, 'media', 'users', 'u1', 'media'));
    expect(leftovers).toEqual(['m1.mp4']);
  });

  it.each([
    '../escape.mp4',
    'users/../../escape.mp4',
    '/etc/passwd',
    'users//media/x.mp4',
    'users\\..\\x.mp4',
    '.tus-uploads/abc',
    'users/./x.mp4',
    '',
  ])('refuses the key %j and touches nothing', async (key) => {
    const error = await rejection(storage.put(key, Readable.from([pattern]), { contentType: 'x' }));
    expect(error).toBeInstanceOf(StorageError);
    expect(error).toMatchObject({ code: 'invalid_key' });
    expect(await rejection(storage.stat(key))).toMatchObject({ code: 'invalid_key' });
    expect(await rejection(storage.delete(key))).toMatchObject({ code: 'invalid_key' });
    // Nothing created, neither under the storage root nor beside it (where '..' would land).
    expect(await readdir(root)).toEqual([]);
  });

  it('hands ffmpeg the real file path, and refuses a missing object', async () => {
    await storage.put(KEY, Readable.from([pattern]), { contentType: 'video/mp4' });
    const content = await storage.withLocalFile(KEY, (path) => readFile(path));
    expect(content).toEqual(pattern);
    expect(
      await rejection(storage.withLocalFile('users/u1/media/none.mp4', () => Promise.resolve())),
    ).toMatchObject({ code: 'not_found' });
  });

  it('adopts a finished tus upload as a media object and clears its tus metadata', async () => {
    const datastore = storage.createTusDatastore();
    const uploadId = 'a1b2c3d4e5f6';
    await datastore.create(new Upload({ id: uploadId, size: pattern.length, offset: 0 }));
    await datastore.write(Readable.from([pattern]), uploadId, 0);

    await storage.adoptTusUpload(uploadId, KEY);
    expect(await buffer(await storage.createReadStream(KEY))).toEqual(pattern);
    expect(await readdir(join(root, 'media', '.tus-uploads'))).toEqual([]);
    expect(
      await rejection(storage.adoptTusUpload(uploadId, 'users/u1/media/m2.mp4')),
    ).toMatchObject({ code: 'not_found' });
    expect(await rejection(storage.adoptTusUpload('../../x', KEY))).toMatchObject({
      code: 'invalid_key',
    });
  });
});

describe('streams handed to put (regression: an unhandled stream error killed the process)', () => {
  it('rejects when the body fails while put is still preparing, instead of crashing', async () => {
    const body = new Readable({ read() {} });
    const stored = storage.put(KEY, body, { contentType: 'image/jpeg' });
    // Fails on the next tick, while put awaits its directory: nobody else listens yet.
    body.destroy(new Error('disk gone'));
    expect(await rejection(stored)).toMatchObject({ message: 'disk gone' });
    expect(await storage.stat(KEY)).toBeNull();
    expect(await readdir(join(root, 'media', 'users', 'u1', 'media'))).toEqual([]);
  });

  it('closes the body it was given when the key is refused', async () => {
    const body = new Readable({ read() {} });
    expect(
      await rejection(storage.put('../x.jpg', body, { contentType: 'image/jpeg' })),
    ).toMatchObject({ code: 'invalid_key' });
    expect(body.destroyed).toBe(true);
  });

  it('putLocalFile: a missing file is a rejection (ENOENT), and nothing is stored', async () => {
    const missing = join(root, 'no-thumbnail.jpg');
    expect(
      await rejection(putLocalFile(storage, KEY, missing, { contentType: 'image/jpeg' })),
    ).toMatchObject({ code: 'ENOENT' });
    expect(await storage.stat(KEY)).toBeNull();
  });
});
