import { randomBytes } from 'node:crypto';
import { open, readFile, stat, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { ERRORS, Upload } from '@tus/server';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempDir } from '../test-support/media-fixtures.ts';
import {
  BatchingFileStore,
  IDLE_FLUSH_MS,
  WRITE_BATCH_BYTES,
  WRITE_BATCH_CHUNKS,
  writeAll,
} from './batching-file-store.ts';

let root: string;
let cleanup: () => Promise<void>;
let store: BatchingFileStore;

beforeEach(async () => {
  ({ dir: root, cleanup } = await createTempDir('cadence-batching-'));
  store = new BatchingFileStore({ directory: root });
});
afterEach(async () => {
  await cleanup();
});

/** Splits `bytes` into chunks of the given sizes (cycled), as an HTTP parser hands a body over. */
function chunked(bytes: Buffer, sizes: number[]): Buffer[] {
  const chunks: Buffer[] = [];
  for (let at = 0, k = 0; at < bytes.length; k++) {
    const size = Math.max(1, sizes[k % sizes.length] ?? 1);
    chunks.push(bytes.subarray(at, at + size));
    at += size;
  }
  return chunks;
}

async function created(id: string, size: number): Promise<void> {
  await store.create(new Upload({ id, size, offset: 0 }));
}

const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

describe('BatchingFileStore.write', () => {
  it('stores a body of any chunking byte for byte at its offset and returns the new offset', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 3 * WRITE_BATCH_BYTES }),
        fc.array(fc.integer({ min: 1, max: 70_000 }), { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 0, max: 4096 }),
        async (length, sizes, offset) => {
          const id = `u1-${randomBytes(16).toString('hex')}`;
          await created(id, offset + length);
          const head = randomBytes(offset);
          const body = randomBytes(length);
          if (offset > 0) expect(await store.write(Readable.from([head]), id, 0)).toBe(offset);
          const next = await store.write(Readable.from(chunked(body, sizes)), id, offset);
          expect(next).toBe(offset + length);
          expect(Buffer.compare(await readFile(join(root, id)), Buffer.concat([head, body]))).toBe(
            0,
          );
        },
      ),
      { numRuns: 25 },
    );
  });

  it('writes a body trickled a byte at a time in batches of at most WRITE_BATCH_CHUNKS chunks', async () => {
    const id = `u1-${randomBytes(16).toString('hex')}`;
    const body = randomBytes(5 * WRITE_BATCH_CHUNKS + 3);
    await created(id, body.length);
    const vectors: number[] = [];
    const writev = Object.getPrototypeOf(await openProbe()) as FileHandle;
    const original = writev.writev;
    writev.writev = function (this: FileHandle, buffers, position) {
      vectors.push(buffers.length);
      return original.call(this, buffers, position);
    } as FileHandle['writev'];
    try {
      expect(await store.write(Readable.from(chunked(body, [1])), id, 0)).toBe(body.length);
    } finally {
      writev.writev = original;
    }
    expect(Buffer.compare(await readFile(join(root, id)), body)).toBe(0);
    expect(Math.max(...vectors)).toBeLessThanOrEqual(WRITE_BATCH_CHUNKS);
    expect(vectors.reduce((sum, n) => sum + n, 0)).toBe(body.length);
  });

  it('keeps the bytes that came before a failing body, then answers FILE_WRITE_ERROR', async () => {
    const id = `u1-${randomBytes(16).toString('hex')}`;
    const sent = randomBytes(WRITE_BATCH_BYTES + 1000);
    await created(id, 2 * sent.length);
    // A full batch, part of the next one, then the connection drops.
    async function* body() {
      yield sent.subarray(0, WRITE_BATCH_BYTES);
      yield sent.subarray(WRITE_BATCH_BYTES);
      throw new Error('client went away');
    }
    expect(await rejection(store.write(Readable.from(body()), id, 0))).toMatchObject(
      ERRORS.FILE_WRITE_ERROR,
    );
    expect(Buffer.compare(await readFile(join(root, id)), sent)).toBe(0);
  });

  it('has what a client sent on disk while it is quiet, without waiting for a full batch', async () => {
    const id = `u1-${randomBytes(16).toString('hex')}`;
    const first = randomBytes(1000);
    const rest = randomBytes(500);
    await created(id, first.length + rest.length);
    const source = new Readable({ read() {} });
    source.push(first);
    const writing = store.write(source, id, 0);
    // The connection stays open: the bytes still reach the disk, as the offset other processes read.
    const deadline = Date.now() + 5_000;
    while ((await stat(join(root, id))).size < first.length) {
      if (Date.now() > deadline) throw new Error('a quiet client’s bytes never reached the disk');
      await new Promise((resolve) => setTimeout(resolve, IDLE_FLUSH_MS));
    }
    source.push(rest);
    source.push(null);
    expect(await writing).toBe(first.length + rest.length);
    expect(Buffer.compare(await readFile(join(root, id)), Buffer.concat([first, rest]))).toBe(0);
  });

  it('answers FILE_WRITE_ERROR for an upload whose file is gone, and refuses ids that are paths', async () => {
    expect(
      await rejection(store.write(Readable.from([Buffer.from('x')]), 'u1-missing', 0)),
    ).toMatchObject(ERRORS.FILE_WRITE_ERROR);
    expect(
      await rejection(store.write(Readable.from([Buffer.from('x')]), '../escape', 0)),
    ).toMatchObject(ERRORS.FILE_NOT_FOUND);
  });
});

describe('writeAll', () => {
  it('goes on after short writes until every byte is written, in order', async () => {
    const buffers = [randomBytes(10), randomBytes(7), randomBytes(20)];
    const written: Buffer[] = [];
    const positions: number[] = [];
    // A kernel that takes at most 6 bytes per call.
    const handle = {
      writev(list: Uint8Array[], position: number) {
        positions.push(position);
        const all = Buffer.concat(list);
        const taken = all.subarray(0, 6);
        written.push(Buffer.from(taken));
        return Promise.resolve({ bytesWritten: taken.length, buffers: list });
      },
    } as unknown as FileHandle;
    await writeAll(handle, buffers, 100);
    expect(Buffer.concat(written)).toEqual(Buffer.concat(buffers));
    expect(positions).toEqual([100, 106, 112, 118, 124, 130, 136]);
  });

  it('fails instead of looping when the kernel writes nothing', async () => {
    const handle = {
      writev: (list: Uint8Array[]) => Promise.resolve({ bytesWritten: 0, buffers: list }),
    } as unknown as FileHandle;
    await expect(writeAll(handle, [randomBytes(4)], 0)).rejects.toThrow('wrote nothing');
  });
});

/** A FileHandle of this runtime (closed again), to reach the class's prototype. */
async function openProbe(): Promise<FileHandle> {
  const handle = await open(join(root, 'probe'), 'w');
  await handle.close();
  return handle;
}
