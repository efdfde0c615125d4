import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import type { CompletedPart, S3ClientConfig } from '@aws-sdk/client-s3';
import { S3Store } from '@tus/s3-store';
import type { DataStore } from '@tus/server';
import {
  StorageError,
  assertValidKey,
  assertValidRange,
  assertValidTusUploadId,
  listenForStreamErrors,
} from './media-storage.ts';
import type { ByteRange, MediaStorage } from './media-storage.ts';
import { makeWorkDir } from '../lib/work-dir.ts';

export interface S3StorageOptions {
  /** e.g. 'https://s3.eu-west-3.amazonaws.com' or a MinIO / R2 URL; omit for AWS defaults. */
  endpoint?: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Path-style URLs (bucket in the path), which MinIO and most self-hosted stores need. */
  forcePathStyle?: boolean;
  /** Where withLocalFile downloads objects (default: this process's scratch root, lib/work-dir.ts). */
  tmpDir?: string;
  /** Multipart part size for put(); S3's minimum is 5 MiB. Default 8 MiB; put() holds about two parts in memory at most. */
  partSizeBytes?: number;
  /** Extra client settings (a request handler in tests, retries, logging). */
  clientOverrides?: Partial<S3ClientConfig>;
}

const MIN_PART_SIZE = 5 * 1024 * 1024;

function isNotFound(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const status =
    '$metadata' in error &&
    typeof error.$metadata === 'object' &&
    error.$metadata !== null &&
    'httpStatusCode' in error.$metadata
      ? error.$metadata.httpStatusCode
      : undefined;
  return error.name === 'NoSuchKey' || error.name === 'NotFound' || status === 404;
}

/** Stream chunks are Buffers unless someone set an encoding or an object mode; accept those too. */
function toBuffer(chunk: unknown): Buffer {
  if (Buffer.isBuffer(chunk)) return chunk;
  if (typeof chunk === 'string') return Buffer.from(chunk);
  if (chunk instanceof Uint8Array)
    return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  throw new TypeError('put() needs a byte stream');
}

/** `bytes=start-end` for S3's Range parameter (same inclusive semantics as ours). */
export function toRangeHeader(range: ByteRange | undefined): string | undefined {
  if (!range) return undefined;
  return `bytes=${range.start}-${range.end ?? ''}`;
}

/**
 * On Node 20, the SDK's first client warns at every start that SDK versions published after
 * January 2027 will need Node 22 (NodeVersionSupportWarning), telling whoever reads the logs to
 * upgrade Node. The version in the lock runs on Node 20, which the README promises, and
 * `npm run check` refuses any installed package whose engines leave Node 20 out: the notice is for
 * whoever upgrades the SDK, and that check tells them. A deployment that sets the variable keeps
 * its own value.
 */
function quietSdkNodeVersionNotice() {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
}

/**
 * Media in an S3-compatible bucket, for deployments where web and worker machines share nothing
 * but the database and the bucket. Objects use the same keys as on disk.
 */
export class S3Storage implements MediaStorage {
  readonly client: S3Client;
  private readonly bucket: string;
  private readonly tmpDir: string | null;
  private readonly partSize: number;
  private readonly clientConfig: S3ClientConfig;

  constructor(options: S3StorageOptions) {
    this.bucket = options.bucket;
    this.tmpDir = options.tmpDir ?? null;
    this.partSize = Math.max(MIN_PART_SIZE, options.partSizeBytes ?? 8 * 1024 * 1024);
    this.clientConfig = {
      region: options.region,
      endpoint: options.endpoint,
      forcePathStyle: options.forcePathStyle ?? false,
      credentials: {
        accessKeyId: options.accessKeyId,
        secretAccessKey: options.secretAccessKey,
      },
      // S3-compatible stores (MinIO, R2, Ceph…) reject or mangle the SDK's default streaming
      // checksums; send them only where S3 requires one.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      ...options.clientOverrides,
    };
    quietSdkNodeVersionNotice();
    this.client = new S3Client(this.clientConfig);
  }

  /**
   * Uploads in parts of `partSizeBytes`, one part in memory at a time: the request stream is
   * consumed only as fast as S3 accepts it. Small bodies go up in a single PutObject.
   */
  async put(
    key: string,
    body: Readable,
    options: { contentType: string },
  ): Promise<{ size: number }> {
    listenForStreamErrors(body);
    try {
      assertValidKey(key);
    } catch (error) {
      body.destroy();
      throw error;
    }
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let size = 0;
    let uploadId: string | undefined;
    const parts: CompletedPart[] = [];

    const uploadPart = async () => {
      const part = Buffer.concat(pending, pendingBytes);
      pending = [];
      pendingBytes = 0;
      if (uploadId === undefined) {
        const created = await this.client.send(
          new CreateMultipartUploadCommand({
            Bucket: this.bucket,
            Key: key,
            ContentType: options.contentType,
          }),
        );
        if (!created.UploadId) throw new Error('S3 did not return an UploadId');
        uploadId = created.UploadId;
      }
      const partNumber = parts.length + 1;
      const { ETag } = await this.client.send(
        new UploadPartCommand({
          Bucket: this.bucket,
          Key: key,
          UploadId: uploadId,
          PartNumber: partNumber,
          Body: part,
          ContentLength: part.length,
        }),
      );
      parts.push({ ETag, PartNumber: partNumber });
    };

    try {
      for await (const chunk of body) {
        const bytes = toBuffer(chunk);
        pending.push(bytes);
        pendingBytes += bytes.length;
        size += bytes.length;
        if (pendingBytes >= this.partSize) await uploadPart();
      }
      if (uploadId === undefined) {
        const whole = Buffer.concat(pending, pendingBytes);
        await this.client.send(
          new PutObjectCommand({
            Bucket: this.bucket,
            Key: key,
            Body: whole,
            ContentLength: whole.length,
            ContentType: options.contentType,
          }),
        );
        return { size };
      }
      if (pendingBytes > 0) await uploadPart();
      await this.client.send(
        new CompleteMultipartUploadCommand({
          Bucket: this.bucket,
          Key: key,
          UploadId: uploadId,
          MultipartUpload: { Parts: parts },
        }),
      );
      return { size };
    } catch (error) {
      // Unfinished multipart uploads are billed storage until aborted.
      if (uploadId !== undefined) {
        await this.client
          .send(
            new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId }),
          )
          .catch(() => undefined);
      }
      throw error;
    }
  }

  async createReadStream(key: string, range?: ByteRange): Promise<Readable> {
    assertValidKey(key);
    assertValidRange(range);
    try {
      const { Body } = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: key, Range: toRangeHeader(range) }),
      );
      if (!(Body instanceof Readable)) throw new Error('S3 returned no readable body');
      return Body;
    } catch (error) {
      if (isNotFound(error))
        throw new StorageError('not_found', `no object at ${key}`, { cause: error });
      if (error instanceof Error && error.name === 'InvalidRange') {
        throw new StorageError('invalid_range', 'range starts past the end', { cause: error });
      }
      throw error;
    }
  }

  async stat(key: string): Promise<{ size: number } | null> {
    assertValidKey(key);
    try {
      const { ContentLength } = await this.client.send(
        new HeadObjectCommand({ Bucket: this.bucket, Key: key }),
      );
      return { size: ContentLength ?? 0 };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    assertValidKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  /** S3 has no folders: once every object under `prefix` is deleted, nothing names it. */
  async deleteFolder(prefix: string): Promise<void> {
    assertValidKey(prefix);
  }

  async withLocalFile<TResult>(
    key: string,
    fn: (localPath: string) => Promise<TResult>,
  ): Promise<TResult> {
    // By default in this process's scratch root, which a restart sweeps if we die mid-download.
    const dir =
      this.tmpDir === null
        ? await makeWorkDir('s3-')
        : await mkdtemp(join(this.tmpDir, 'cadence-s3-'));
    try {
      const extension = /\.[A-Za-z0-9]{1,8}$/.exec(key)?.[0] ?? '';
      // Keep the extension: ffmpeg guesses some formats from it.
      const localPath = join(dir, `object${extension}`);
      // Nothing awaited between getting the body and piping it: its errors always have a listener.
      await pipeline(await this.createReadStream(key), createWriteStream(localPath));
      return await fn(localPath);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  createTusDatastore(): DataStore {
    return new S3Store({
      partSize: this.partSize,
      s3ClientConfig: { ...this.clientConfig, bucket: this.bucket },
    });
  }

  /**
   * S3Store leaves a finished upload at key `<uploadId>` with metadata in `<uploadId>.info`.
   * CopyObject handles up to 5 GB in one call, above TikTok's 4 GB limit for a video.
   */
  async adoptTusUpload(uploadId: string, key: string): Promise<void> {
    assertValidTusUploadId(uploadId);
    assertValidKey(key);
    try {
      await this.client.send(
        new CopyObjectCommand({
          Bucket: this.bucket,
          Key: key,
          CopySource: `${this.bucket}/${encodeURIComponent(uploadId)}`,
        }),
      );
    } catch (error) {
      if (isNotFound(error)) {
        throw new StorageError('not_found', `no tus upload ${uploadId}`, { cause: error });
      }
      throw error;
    }
    await this.client.send(
      new DeleteObjectsCommand({
        Bucket: this.bucket,
        Delete: { Objects: [{ Key: uploadId }, { Key: `${uploadId}.info` }], Quiet: true },
      }),
    );
  }
}
