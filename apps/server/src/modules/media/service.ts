import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type {
  Media,
  MediaKind,
  MediaRejectionReason,
  UploadPurpose,
} from '@cadence/shared/schemas/media';
import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../../lib/app-error.ts';
import {
  extractThumbnail,
  MediaProbeError,
  probeVideo,
  validateAsSource,
  validateForTikTok,
  type ProbedVideo,
} from '../../media/probe.ts';
import { mediaKey, type ByteRange, type MediaStorage } from '../../storage/media-storage.ts';
import type { MediaRepository, MediaRow } from './repository.ts';

/** A file refused by the checks: the reasons are translated by the browser. */
export class MediaRejectedError extends Error {
  override name = 'MediaRejectedError';
  constructor(readonly reasons: MediaRejectionReason[]) {
    super(`Media rejected: ${reasons.join(', ')}`);
  }
}

const contentTypeByContainer = (probe: ProbedVideo): string => {
  const names = probe.container.split(',');
  if (names.includes('webm')) return 'video/webm';
  if (names.includes('mov') && !names.includes('mp4')) return 'video/quicktime';
  return 'video/mp4';
};

const extensionFor = (contentType: string) =>
  contentType === 'video/webm' ? 'webm' : contentType === 'video/quicktime' ? 'mov' : 'mp4';

function isForeignKeyViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === '23503';
}

export interface MediaServiceDeps {
  repository: MediaRepository;
  storage: MediaStorage;
  ffmpegPath: string;
  ffprobePath: string;
  userQuotaBytes: number;
  logger: FastifyBaseLogger;
}

/** Media a user owns: accepted uploads, rendered stories and compilations, each probed and thumbnailed. */
export function createMediaService(deps: MediaServiceDeps) {
  const { repository, storage, ffmpegPath, ffprobePath, userQuotaBytes, logger } = deps;

  function toMedia(row: MediaRow): Media {
    return {
      id: row.id,
      kind: row.kind,
      originalName: row.original_name,
      sizeBytes: row.size_bytes,
      durationSeconds: row.duration_seconds,
      width: row.width,
      height: row.height,
      hasAudio: row.has_audio,
      thumbnailUrl: row.thumbnail_key ? `/api/media/${encodeURIComponent(row.id)}/thumbnail` : null,
      fileUrl: `/api/media/${encodeURIComponent(row.id)}/file`,
      createdAt: row.created_at.toISOString(),
    };
  }

  async function requireOwned(userId: string, id: string): Promise<MediaRow> {
    const row = await repository.findForUser(userId, id);
    if (!row) throw new AppError('not_found', 'No such media');
    return row;
  }

  /** Probes the stored object, checks TikTok's limits, makes a thumbnail and records the row. */
  async function register(
    userId: string,
    input: {
      id: string;
      key: string;
      kind: MediaKind;
      originalName: string;
      /** 'post': TikTok's limits; 'source': a story/meme input; 'none': files we rendered. */
      limits: UploadPurpose | 'none';
    },
  ): Promise<Media> {
    let probe: ProbedVideo;
    let thumbnailKey: string | null = `users/${userId}/media/${input.id}.jpg`;
    try {
      probe = await storage.withLocalFile(input.key, async (localPath) => {
        const probed = await probeVideo(ffprobePath, localPath);
        const problems =
          input.limits === 'post'
            ? validateForTikTok(probed)
            : input.limits === 'source'
              ? validateAsSource(probed)
              : [];
        if (problems.length > 0) throw new MediaRejectedError(problems);
        const workDir = await mkdtemp(path.join(os.tmpdir(), 'cadence-thumb-'));
        try {
          const jpeg = path.join(workDir, 'thumbnail.jpg');
          await extractThumbnail(ffmpegPath, localPath, jpeg, {
            durationSeconds: probed.durationSeconds,
          });
          await storage.put(thumbnailKey!, createReadStream(jpeg), { contentType: 'image/jpeg' });
        } catch (error) {
          // A video whose frame cannot be grabbed is still a video: no thumbnail, not a refusal.
          logger.warn({ err: error, mediaId: input.id }, 'thumbnail extraction failed');
          thumbnailKey = null;
        } finally {
          await rm(workDir, { recursive: true, force: true });
        }
        return probed;
      });
    } catch (error) {
      await storage.delete(input.key);
      if (error instanceof MediaProbeError) throw new MediaRejectedError(['not_a_video']);
      throw error;
    }
    const contentType = contentTypeByContainer(probe);
    const row = await repository.insert({
      id: input.id,
      user_id: userId,
      kind: input.kind,
      original_name: input.originalName.slice(0, 255) || 'video',
      content_type: contentType,
      size_bytes: probe.sizeBytes,
      storage_key: input.key,
      thumbnail_key: thumbnailKey,
      duration_seconds: probe.durationSeconds,
      width: probe.displayWidth,
      height: probe.displayHeight,
      has_audio: probe.hasAudio,
      probe: JSON.stringify(probe),
    });
    return toMedia(row);
  }

  return {
    toMedia,

    /** Refuses a new upload that would not fit in the user's quota (size known at creation). */
    async assertQuota(userId: string, incomingBytes: number): Promise<void> {
      const used = await repository.bytesUsed(userId);
      if (used + incomingBytes > userQuotaBytes) throw new MediaRejectedError(['quota_exceeded']);
    },

    /** A finished tus upload becomes media, or is deleted with the reasons it was refused. */
    async acceptUpload(
      userId: string,
      upload: { id: string; originalName: string; purpose: UploadPurpose },
    ): Promise<Media> {
      const key = mediaKey(userId, upload.id, 'video');
      await storage.adoptTusUpload(upload.id, key);
      return register(userId, {
        id: upload.id,
        key,
        kind: 'upload',
        originalName: upload.originalName,
        limits: upload.purpose,
      });
    },

    /** Registers a file produced on this machine (a rendered story, a compilation); the file is moved into storage. */
    async createFromFile(
      userId: string,
      input: { localPath: string; kind: MediaKind; originalName: string },
    ): Promise<Media> {
      const id = `${input.kind}-${randomBytes(16).toString('hex')}`;
      const key = mediaKey(userId, id, 'mp4');
      await storage.put(key, createReadStream(input.localPath), { contentType: 'video/mp4' });
      return register(userId, {
        id,
        key,
        kind: input.kind,
        originalName: input.originalName,
        limits: 'none',
      });
    },

    async list(userId: string, kind?: MediaKind): Promise<Media[]> {
      return (await repository.listForUser(userId, kind)).map(toMedia);
    },

    async get(userId: string, id: string): Promise<Media> {
      return toMedia(await requireOwned(userId, id));
    },

    /** The rows (with probe data) of the given ids that this user owns. */
    findMany: (userId: string, ids: readonly string[]) => repository.findManyForUser(userId, ids),
    getRow: requireOwned,

    async remove(userId: string, id: string): Promise<void> {
      const row = await requireOwned(userId, id);
      try {
        await repository.delete(userId, id);
      } catch (error) {
        // Posts keep a reference to their video (foreign key): a video still in use stays.
        if (isForeignKeyViolation(error)) {
          throw new AppError('conflict', 'This video is used by a scheduled post', {
            id: 'media.errors.inUse',
          });
        }
        throw error;
      }
      await Promise.all([
        storage.delete(row.storage_key),
        row.thumbnail_key ? storage.delete(row.thumbnail_key) : Promise.resolve(),
      ]);
    },

    async openFile(
      userId: string,
      id: string,
      range?: ByteRange,
    ): Promise<{ row: MediaRow; stream: Readable }> {
      const row = await requireOwned(userId, id);
      return { row, stream: await storage.createReadStream(row.storage_key, range) };
    },

    async openThumbnail(userId: string, id: string): Promise<Readable> {
      const row = await requireOwned(userId, id);
      if (!row.thumbnail_key) throw new AppError('not_found', 'No thumbnail');
      return storage.createReadStream(row.thumbnail_key);
    },

    /** For workers: the file on local disk while `fn` runs (a download when storage is S3). */
    withLocalFile<TResult>(
      row: MediaRow,
      fn: (localPath: string) => Promise<TResult>,
    ): Promise<TResult> {
      return storage.withLocalFile(row.storage_key, fn);
    },

    extensionFor,
  };
}

export type MediaService = ReturnType<typeof createMediaService>;
