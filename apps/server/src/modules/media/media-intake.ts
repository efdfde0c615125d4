// Files that become media: finished tus uploads, and files rendered on this machine (stories,
// compilations), each counted in its owner's quota before it is kept.
import { randomBytes } from 'node:crypto';
import { stat } from 'node:fs/promises';
import type { Media, MediaKind, UploadPurpose } from '@cadence/shared/schemas/media';
import { mediaKey, putLocalFile } from '../../storage/media-storage.ts';
import type { MediaServiceDeps } from './media-deps.ts';
import { MediaRejectedError } from './media-errors.ts';
import { registerMedia } from './media-registration.ts';
import type { RemoveTusUpload, UploadReservations } from './upload-reservations.ts';

export function createMediaIntake(
  deps: MediaServiceDeps,
  reservations: Pick<UploadReservations, 'reserveUpload'>,
  removeTusUpload: RemoveTusUpload,
) {
  const { repository, storage, logger } = deps;
  return {
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
        return await registerMedia(deps, userId, {
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
      await reservations.reserveUpload(userId, id, size);
      const key = mediaKey(userId, id, 'mp4');
      try {
        await putLocalFile(storage, key, input.localPath, { contentType: 'video/mp4' });
        return await registerMedia(deps, userId, {
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
  };
}
