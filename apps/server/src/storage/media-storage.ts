import { open } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { DataStore } from '@tus/server';

export type StorageErrorCode = 'invalid_key' | 'not_found' | 'invalid_range';

export class StorageError extends Error {
  constructor(
    readonly code: StorageErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'StorageError';
  }
}

/** Inclusive byte range, as in an HTTP Range header: `end` defaults to the last byte. */
export interface ByteRange {
  start: number;
  end?: number;
}

/**
 * Where media files live: local disk by default, S3-compatible storage for several machines.
 * Keys are relative, '/'-separated paths such as `users/<userId>/media/<id>.mp4` (see
 * assertValidKey). Everything streams: no method holds a whole file in memory.
 */
export interface MediaStorage {
  /** Stores the stream under `key`, replacing any previous object; resolves with the byte count. */
  put(key: string, body: Readable, options: { contentType: string }): Promise<{ size: number }>;
  /** The object's bytes (or the range). Rejects with StorageError 'not_found' / 'invalid_range'. */
  createReadStream(key: string, range?: ByteRange): Promise<Readable>;
  /** Size of the object, or null when there is none. */
  stat(key: string): Promise<{ size: number } | null>;
  /** Removes the object; removing a missing object is not an error. */
  delete(key: string): Promise<void>;
  /**
   * Removes the folder `prefix` (e.g. `users/<id>`) once its objects are deleted, so a deleted
   * account leaves nothing named after it. A no-op where folders do not exist (S3).
   */
  deleteFolder(prefix: string): Promise<void>;
  /**
   * Runs `fn` with a local file path holding the object (for ffmpeg/ffprobe), valid until `fn`
   * settles. Disk: the file itself — do not modify it. S3: a temporary download, removed after.
   */
  withLocalFile<TResult>(
    key: string,
    fn: (localPath: string) => Promise<TResult>,
  ): Promise<TResult>;
  /** The @tus/server datastore that receives resumable uploads next to this storage. */
  createTusDatastore(): DataStore;
  /**
   * Moves a finished tus upload to `key` and removes the upload's tus metadata, so the file
   * becomes ordinary media. Rejects with 'not_found' when there is no such upload.
   */
  adoptTusUpload(uploadId: string, key: string): Promise<void>;
}

const KEY_SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const TUS_UPLOAD_ID = /^[A-Za-z0-9_-]{1,200}$/;

/**
 * Keys are relative paths of plain segments: letters, digits, '.', '_' and '-', each segment
 * starting with a letter or digit. That rules out '..', '.', absolute paths, backslashes, empty
 * segments and hidden names (the tus staging area is hidden, so keys can never reach it).
 */
export function assertValidKey(key: string): void {
  const valid =
    key.length > 0 &&
    key.length <= 1024 &&
    key.split('/').every((segment) => KEY_SEGMENT.test(segment));
  if (!valid) throw new StorageError('invalid_key', `invalid storage key: ${JSON.stringify(key)}`);
}

export function assertValidTusUploadId(uploadId: string): void {
  if (!TUS_UPLOAD_ID.test(uploadId)) {
    throw new StorageError('invalid_key', `invalid tus upload id: ${JSON.stringify(uploadId)}`);
  }
}

export function assertValidRange(range: ByteRange | undefined): void {
  if (!range) return;
  const { start, end } = range;
  const valid =
    Number.isSafeInteger(start) &&
    start >= 0 &&
    (end === undefined || (Number.isSafeInteger(end) && end >= start));
  if (!valid)
    throw new StorageError('invalid_range', `invalid byte range ${JSON.stringify(range)}`);
}

/** The key of a user's uploaded media file. */
export function mediaKey(userId: string, mediaId: string, extension = 'mp4'): string {
  const key = `users/${userId}/media/${mediaId}.${extension}`;
  assertValidKey(key);
  return key;
}

/**
 * Gives `body` an 'error' listener at once. A stream made before an async call can fail while
 * the call awaits something else (mkdir, an S3 request), and an 'error' nobody listens to kills
 * the process. The error is not lost: pipeline() and for-await read the stream's errored state and
 * reject with it. Every put() calls this first.
 */
export function listenForStreamErrors(body: Readable): void {
  body.on('error', ignoreHere);
}

function ignoreHere(): void {
  // Reported by whoever consumes the stream (see listenForStreamErrors).
}

/**
 * Stores a local file (a thumbnail, a render, a download) under `key`. The file is opened before
 * anything else, so a missing one is this promise's rejection (ENOENT), never a stream 'error'.
 */
export async function putLocalFile(
  storage: MediaStorage,
  key: string,
  localPath: string,
  options: { contentType: string },
): Promise<{ size: number }> {
  const handle = await open(localPath, 'r');
  const body = handle.createReadStream({ autoClose: true });
  return storage.put(key, body, options);
}
