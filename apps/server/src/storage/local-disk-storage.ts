import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { DataStore } from '@tus/server';
import { BatchingFileStore } from './batching-file-store.ts';
import {
  StorageError,
  assertValidKey,
  assertValidRange,
  assertValidTusUploadId,
  listenForStreamErrors,
} from './media-storage.ts';
import type { ByteRange, MediaStorage } from './media-storage.ts';

/** Hidden, so no valid key can name it (keys cannot start with '.'). */
const TUS_DIRECTORY = '.tus-uploads';

function isMissing(error: unknown): boolean {
  return error instanceof Error && 'code' in error && error.code === 'ENOENT';
}

/** Media on the local file system under `rootDir` (DATA_DIR/media by default). */
export class LocalDiskStorage implements MediaStorage {
  private readonly root: string;

  constructor(rootDir: string) {
    this.root = resolve(rootDir);
  }

  /** Absolute path of a key; validation plus a containment check, belt and braces. */
  private pathOf(key: string): string {
    assertValidKey(key);
    const path = join(this.root, key);
    const fromRoot = relative(this.root, path);
    if (fromRoot.startsWith('..') || fromRoot.startsWith(sep) || fromRoot === '') {
      throw new StorageError('invalid_key', `key escapes the storage root: ${key}`);
    }
    return path;
  }

  // The content type is not kept on disk: it follows from the key's extension when served.
  async put(
    key: string,
    body: Readable,
    _options?: { contentType: string },
  ): Promise<{ size: number }> {
    listenForStreamErrors(body);
    let path: string;
    try {
      path = this.pathOf(key);
      await mkdir(dirname(path), { recursive: true });
    } catch (error) {
      body.destroy();
      throw error;
    }
    // Write beside the target and rename: readers never see a half-written file, and a failed
    // upload leaves the previous version in place.
    const partial = `${path}.${randomUUID()}.partial`;
    const output = createWriteStream(partial);
    try {
      await pipeline(body, output);
      await rename(partial, path);
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
    return { size: output.bytesWritten };
  }

  async createReadStream(key: string, range?: ByteRange): Promise<Readable> {
    const path = this.pathOf(key);
    assertValidRange(range);
    // Open first, so a missing file is a rejected promise rather than a stream 'error' later.
    const handle = await open(path, 'r').catch((error: unknown) => {
      if (isMissing(error))
        throw new StorageError('not_found', `no object at ${key}`, { cause: error });
      throw error;
    });
    if (range) {
      const { size } = await handle.stat();
      if (range.start >= size && size > 0) {
        await handle.close();
        throw new StorageError('invalid_range', `range starts past the end (${size} bytes)`);
      }
    }
    return handle.createReadStream({ start: range?.start, end: range?.end, autoClose: true });
  }

  async stat(key: string): Promise<{ size: number } | null> {
    try {
      const stats = await stat(this.pathOf(key));
      return stats.isFile() ? { size: stats.size } : null;
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  /**
   * Removes the folder `prefix` names and whatever is left in it. Folders are not pruned on each
   * delete: a write creating its folder while a delete pruned it would fail (a 500 the tus fuzz
   * test caught), so only a deleted account's folder goes, once, at the end.
   */
  async deleteFolder(prefix: string): Promise<void> {
    assertValidKey(prefix);
    // A file another request adds while the folder is emptied makes rmdir fail (ENOTEMPTY): Node
    // then walks the folder again, a few times.
    await rm(this.pathOf(prefix), { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
  }

  async withLocalFile<TResult>(
    key: string,
    fn: (localPath: string) => Promise<TResult>,
  ): Promise<TResult> {
    if ((await this.stat(key)) === null) throw new StorageError('not_found', `no object at ${key}`);
    return fn(this.pathOf(key));
  }

  createTusDatastore(): DataStore {
    return new BatchingFileStore({ directory: join(this.root, TUS_DIRECTORY) });
  }

  async adoptTusUpload(uploadId: string, key: string): Promise<void> {
    assertValidTusUploadId(uploadId);
    const target = this.pathOf(key);
    const uploaded = join(this.root, TUS_DIRECTORY, uploadId);
    await mkdir(dirname(target), { recursive: true });
    // Same file system: a rename, no copy, however large the video.
    await rename(uploaded, target).catch((error: unknown) => {
      if (isMissing(error)) {
        throw new StorageError('not_found', `no tus upload ${uploadId}`, { cause: error });
      }
      throw error;
    });
    // FileStore keeps the upload's metadata in <id>.json beside it.
    await rm(`${uploaded}.json`, { force: true });
  }
}
