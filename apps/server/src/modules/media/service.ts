import { randomBytes } from 'node:crypto';
import { rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type {
  Media,
  MediaKind,
  MediaRejectionReason,
  UploadPurpose,
} from '@cadence/shared/schemas/media';
import type { FastifyBaseLogger } from 'fastify';
import { isForeignKeyViolation } from '../../db/pg-errors.ts';
import { AppError } from '../../lib/app-error.ts';
import { allowedDemuxerOf } from '../../media/media-allow-list.ts';
import {
  MediaProbeError,
  probeVideo,
  validateAsSource,
  validateForTikTok,
  type ProbedVideo,
} from '../../media/probe.ts';
import { extractThumbnail } from '../../media/thumbnails.ts';
import { makeWorkDir } from '../../lib/work-dir.ts';
import {
  mediaKey,
  putLocalFile,
  type ByteRange,
  type MediaStorage,
} from '../../storage/media-storage.ts';
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

/**
 * What a render or compilation of this length is expected to weigh (CRF 20–21 H.264 at
 * 1080×1920 plus 128 kb/s AAC), kept on the low side: it only refuses early a render whose file
 * could not be kept; the real size is checked when the file is stored (createFromFile).
 */
export function expectedRenderBytes(durationSeconds: number): number {
  const bitsPerSecond = 1_500_000;
  return Math.ceil((Math.max(0, durationSeconds) * bitsPerSecond) / 8);
}

/** A new upload that would not fit in its owner's quota: says the quota and what is taken. */
export class QuotaExceededError extends MediaRejectedError {
  override name = 'QuotaExceededError';
  constructor(
    readonly quotaBytes: number,
    readonly usedBytes: number,
  ) {
    super(['quota_exceeded']);
  }
}

/** tus datastores answer a missing upload with their 404/410 errors. */
function isTusNotFound(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    'status_code' in error &&
    (error.status_code === 404 || error.status_code === 410)
  );
}

export interface MediaServiceDeps {
  repository: MediaRepository;
  storage: MediaStorage;
  ffmpegPath: string;
  ffprobePath: string;
  userQuotaBytes: number;
  /** An unfinished upload expires this long after its creation or last PATCH. */
  uploadTtlMs: number;
  logger: FastifyBaseLogger;
}

/** Media a user owns: accepted uploads, rendered stories and compilations, each probed and thumbnailed. */
export function createMediaService(deps: MediaServiceDeps) {
  const { repository, storage, ffmpegPath, ffprobePath, userQuotaBytes, uploadTtlMs, logger } =
    deps;
  // Removes the bytes of unfinished uploads (expired, or found without a reservation).
  let tusStore: ReturnType<MediaStorage['createTusDatastore']> | null = null;
  const removeTusUpload = async (uploadId: string): Promise<void> => {
    tusStore ??= storage.createTusDatastore();
    // Already gone (finished, terminated, never stored) is the state we want.
    await tusStore.remove(uploadId).catch((error: unknown) => {
      if (!isTusNotFound(error)) throw error;
    });
  };

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

  /**
   * Deletes expired unfinished uploads (of one user, or everyone's): first their reservations,
   * which a PATCH can then no longer extend, then their bytes. Returns how many were deleted.
   */
  async function deleteExpiredUploads(options: { userId?: string } = {}): Promise<number> {
    let deleted = 0;
    for (;;) {
      const ids = await repository.deleteExpiredReservations({ ...options, limit: 100 });
      for (const id of ids) {
        await removeTusUpload(id).catch((error: unknown) => {
          // The row is gone: these bytes are now only an orphan file, worth a line in the log.
          logger.warn({ err: error, uploadId: id }, 'could not delete an expired upload');
        });
      }
      deleted += ids.length;
      if (ids.length < 100) return deleted;
    }
  }

  /**
   * An upload whose reservation expired (it can never be extended again) or does not exist (it
   * finished, was refused, terminated, or predates reservations): no request may write it any
   * more, so its bytes go now, with its row and the user's other expired ones.
   */
  async function discardDeadUpload(
    uploadId: string,
    reservation: { user_id: string } | undefined,
  ): Promise<void> {
    if (reservation) await deleteExpiredUploads({ userId: reservation.user_id });
    else await removeTusUpload(uploadId);
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
      /** A finished upload: its media row takes over its quota reservation. */
      replacesReservation: boolean;
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
        const workDir = await makeWorkDir('thumb-');
        try {
          const jpeg = path.join(workDir, 'thumbnail.jpg');
          await extractThumbnail(ffmpegPath, localPath, jpeg, {
            durationSeconds: probed.durationSeconds,
            demuxer: allowedDemuxerOf(probed.container),
          });
          await putLocalFile(storage, thumbnailKey!, jpeg, { contentType: 'image/jpeg' });
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
    const values = {
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
    };
    try {
      const row = input.replacesReservation
        ? await repository.insertReplacingReservation(values)
        : await repository.insert(values);
      return toMedia(row);
    } catch (error) {
      // No row, no file: nothing would ever list or delete them.
      await Promise.all([
        storage.delete(input.key),
        thumbnailKey ? storage.delete(thumbnailKey) : Promise.resolve(),
      ]);
      throw error;
    }
  }

  return {
    /**
     * Holds `declaredBytes` of the user's quota for a new upload (its Upload-Length) until it
     * becomes media, is refused or terminated, or expires; QuotaExceededError when it does not fit
     * beside their media and other unfinished uploads. Expired uploads of the user are deleted
     * first, so an abandoned upload never blocks a new one past its expiry.
     */
    async reserveUpload(userId: string, uploadId: string, declaredBytes: number): Promise<void> {
      await deleteExpiredUploads({ userId });
      const outcome = await repository.reserveUpload({
        uploadId,
        userId,
        declaredBytes,
        quotaBytes: userQuotaBytes,
        ttlMs: uploadTtlMs,
      });
      if (!outcome.reserved) throw new QuotaExceededError(userQuotaBytes, outcome.usedBytes);
    },

    /**
     * Before a PATCH writes: pushes the upload's expiry back and returns its reserved (declared)
     * size, or null when it expired or has no reservation — then its bytes are deleted, and the
     * client must start a new upload.
     */
    async keepUploadAlive(uploadId: string): Promise<number | null> {
      const declaredBytes = await repository.extendReservation(uploadId, uploadTtlMs);
      if (declaredBytes !== undefined) return declaredBytes;
      await discardDeadUpload(uploadId, await repository.findReservation(uploadId));
      return null;
    },

    /** Before a HEAD: whether the upload can still be resumed (not expired); a dead one is deleted. */
    async isUploadAlive(uploadId: string): Promise<boolean> {
      const reservation = await repository.findReservation(uploadId);
      if (reservation?.alive) return true;
      await discardDeadUpload(uploadId, reservation);
      return false;
    },

    /** After the client terminated an upload (tus DELETE): its space is free again. */
    releaseUpload: (uploadId: string) => repository.deleteReservation(uploadId),

    deleteExpiredUploads,

    /**
     * A finished tus upload becomes media, or is deleted with the reasons it was refused. The
     * quota is checked once more: the stored bytes must be those reserved at creation.
     */
    async acceptUpload(
      userId: string,
      upload: { id: string; originalName: string; purpose: UploadPurpose; sizeBytes: number },
    ): Promise<Media> {
      const reservation = await repository.findReservation(upload.id);
      if (
        !reservation ||
        reservation.user_id !== userId ||
        reservation.declared_bytes !== upload.sizeBytes
      ) {
        // Not reachable through tus (every upload is reserved at creation, with its length); an
        // upload without a matching reservation is not accounted for, so it is not kept.
        logger.warn({ uploadId: upload.id }, 'finished upload without a matching reservation');
        await removeTusUpload(upload.id);
        await repository.deleteReservation(upload.id);
        throw new MediaRejectedError(['invalid_upload']);
      }
      const key = mediaKey(userId, upload.id, 'video');
      await storage.adoptTusUpload(upload.id, key);
      try {
        return await register(userId, {
          id: upload.id,
          key,
          kind: 'upload',
          originalName: upload.originalName,
          limits: upload.purpose,
          replacesReservation: true,
        });
      } catch (error) {
        // Refused or failed: register removed the file, so the space it held is free again.
        await repository.deleteReservation(upload.id);
        throw error;
      }
    },

    /**
     * Before a render or compilation starts: QuotaExceededError when the user has no room for its
     * expected size, so no minutes of ffmpeg are spent on a file that could not be kept. Only an
     * early answer: the file's real size is reserved atomically by createFromFile.
     */
    async assertRoomFor(userId: string, expectedBytes: number): Promise<void> {
      await deleteExpiredUploads({ userId });
      const usedBytes = await repository.bytesUsed(userId);
      if (usedBytes + expectedBytes > userQuotaBytes) {
        throw new QuotaExceededError(userQuotaBytes, usedBytes);
      }
    },

    /**
     * Registers a file produced on this machine (a rendered story, a compilation); the file is
     * moved into storage. Its size is first reserved in the owner's quota like an upload's (same
     * row, same lock), so concurrent renders and uploads cannot together pass the quota:
     * QuotaExceededError when it does not fit, and the file is not kept.
     */
    async createFromFile(
      userId: string,
      input: { localPath: string; kind: MediaKind; originalName: string },
    ): Promise<Media> {
      const id = `${input.kind}-${randomBytes(16).toString('hex')}`;
      const { size } = await stat(input.localPath);
      await deleteExpiredUploads({ userId });
      const outcome = await repository.reserveUpload({
        uploadId: id,
        userId,
        declaredBytes: size,
        quotaBytes: userQuotaBytes,
        ttlMs: uploadTtlMs,
      });
      if (!outcome.reserved) throw new QuotaExceededError(userQuotaBytes, outcome.usedBytes);
      const key = mediaKey(userId, id, 'mp4');
      try {
        await putLocalFile(storage, key, input.localPath, { contentType: 'video/mp4' });
        return await register(userId, {
          id,
          key,
          kind: input.kind,
          originalName: input.originalName,
          limits: 'none',
          replacesReservation: true,
        });
      } catch (error) {
        // register removed the file (or it never got stored): the space is free again.
        await repository.deleteReservation(id);
        throw error;
      }
    },

    async list(userId: string, kind?: MediaKind): Promise<Media[]> {
      return (await repository.listForUser(userId, kind)).map(toMedia);
    },

    async get(userId: string, id: string): Promise<Media> {
      return toMedia(await requireOwned(userId, id));
    },

    /** The rows (with probe data) of the given ids that this user owns. */
    findMany: (userId: string, ids: readonly string[]) => repository.findManyForUser(userId, ids),

    /** What the API shows of the given ids this user owns, by id (a render's or a compilation's result). */
    async viewsById(userId: string, ids: readonly string[]): Promise<Map<string, Media>> {
      const rows = await repository.findManyForUser(userId, ids);
      return new Map(rows.map((row) => [row.id, toMedia(row)]));
    },
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
