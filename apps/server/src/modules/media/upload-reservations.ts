// Unfinished uploads and the quota they hold: reserved at creation, kept alive by each PATCH,
// released when terminated, and deleted (row and bytes) once expired.
import type { MediaStorage } from '../../storage/media-storage.ts';
import type { MediaServiceDeps } from './media-deps.ts';
import { QuotaExceededError } from './media-errors.ts';

/** Removes an unfinished upload's bytes. */
export type RemoveTusUpload = (uploadId: string) => Promise<void>;

/** tus datastores answer a missing upload with their 404/410 errors. */
function isTusNotFound(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    'status_code' in error &&
    (error.status_code === 404 || error.status_code === 410)
  );
}

/** Removes the bytes of unfinished uploads (expired, or found without a reservation). */
export function tusUploadRemover(storage: MediaStorage): RemoveTusUpload {
  let tusStore: ReturnType<MediaStorage['createTusDatastore']> | null = null;
  return async (uploadId) => {
    tusStore ??= storage.createTusDatastore();
    // Already gone (finished, terminated, never stored) is the state we want.
    await tusStore.remove(uploadId).catch((error: unknown) => {
      if (!isTusNotFound(error)) throw error;
    });
  };
}

export function createUploadReservations(
  deps: Pick<MediaServiceDeps, 'repository' | 'userQuotaBytes' | 'uploadTtlMs' | 'logger'>,
  removeTusUpload: RemoveTusUpload,
) {
  const { repository, userQuotaBytes, uploadTtlMs, logger } = deps;

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
  };
}

export type UploadReservations = ReturnType<typeof createUploadReservations>;
