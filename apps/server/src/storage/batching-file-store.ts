// @tus/file-store's FileStore, with a PATCH body written to disk in batches instead of chunk by
// chunk (docs/decisions/040). FileStore pipes the body into a
// `fs.createWriteStream`, one write per chunk the HTTP parser hands over (64 KiB at most): sixteen
// thousand writes per GiB, each a round trip to libuv's thread pool, whose futex wake-ups and
// context switches were the largest item of the server's kernel time during an upload. Here the
// chunks gather into one `writev` of about WRITE_BATCH_BYTES (256 KiB), written while the next
// batch fills.
import { open, type FileHandle } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { Readable } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import { FileStore } from '@tus/file-store';
import { ERRORS } from '@tus/server';
import { TusHookError } from '../lib/tus-error.ts';

/** A batch is written once it holds this many bytes… */
export const WRITE_BATCH_BYTES = 256 * 1024;
/**
 * …or this many chunks: a client trickling bytes makes tiny chunks, and 256 KiB of one-byte
 * chunks would be 262,144 Buffers held at once (and far more than writev's 1,024 vectors).
 */
export const WRITE_BATCH_CHUNKS = 64;
/**
 * A batch that is not full is written this long after its first chunk: the bytes of a client
 * that went quiet reach the disk (and the offset another process reads) without waiting for more.
 */
export const IDLE_FLUSH_MS = 10;

/** Writes every byte of `buffers` at `position`, however many calls the kernel takes for it. */
export async function writeAll(handle: FileHandle, buffers: Uint8Array[], position: number) {
  let rest = buffers;
  let at = position;
  while (rest.length > 0) {
    const { bytesWritten } = await handle.writev(rest, at);
    if (bytesWritten <= 0) throw new Error('writev wrote nothing');
    at += bytesWritten;
    let skip = bytesWritten;
    const left: Uint8Array[] = [];
    for (const buffer of rest) {
      if (skip >= buffer.byteLength) {
        skip -= buffer.byteLength;
        continue;
      }
      left.push(skip > 0 ? buffer.subarray(skip) : buffer);
      skip = 0;
    }
    rest = left;
  }
}

export class BatchingFileStore extends FileStore {
  /**
   * As FileStore's: the body's bytes from `offset` on, the new offset returned, and
   * FILE_WRITE_ERROR when the body or the disk fails. Bytes received before a failure are written
   * too (FileStore wrote each chunk as it came): the upload's offset is what the file holds.
   */
  override async write(
    readable: IncomingMessage | Readable,
    fileId: string,
    offset: number,
  ): Promise<number> {
    // FileStore's own check: an id is a file name in the directory, never a path.
    if (basename(fileId) !== fileId) throw TusHookError.of(ERRORS.FILE_NOT_FOUND);
    let handle: FileHandle;
    try {
      handle = await open(join(this.directory, fileId), 'r+');
    } catch {
      throw TusHookError.of(ERRORS.FILE_WRITE_ERROR);
    }
    let position = offset;
    let batch: Uint8Array[] = [];
    let batchBytes = 0;
    /** Every batch handed to the disk so far, in order: each write starts once the last ended. */
    let written: Promise<void> = Promise.resolve();
    let idle: NodeJS.Timeout | undefined;
    /** Hands the batch to the disk; resolves once the batch before it is written. */
    const flush = () => {
      clearTimeout(idle);
      idle = undefined;
      const before = written;
      if (batchBytes === 0) return before;
      const buffers = batch;
      const at = position;
      position += batchBytes;
      batch = [];
      batchBytes = 0;
      written = before.then(() => writeAll(handle, buffers, at));
      // Awaited by the next flush or at the end; until then a failure must not go unhandled.
      written.catch(() => undefined);
      return before;
    };
    try {
      try {
        for await (const chunk of readable as AsyncIterable<Uint8Array>) {
          batch.push(chunk);
          batchBytes += chunk.byteLength;
          if (batchBytes >= WRITE_BATCH_BYTES || batch.length >= WRITE_BATCH_CHUNKS) {
            // One batch on its way to the disk while the next one fills.
            await flush();
          } else if (idle === undefined) {
            // A client that goes quiet has what it sent on disk soon, as with FileStore.
            idle = setTimeout(() => void flush().catch(() => undefined), IDLE_FLUSH_MS);
          }
        }
      } finally {
        await flush().catch(() => undefined);
        await written;
      }
    } catch {
      throw TusHookError.of(ERRORS.FILE_WRITE_ERROR);
    } finally {
      clearTimeout(idle);
      await handle.close().catch(() => undefined);
    }
    return position;
  }
}
