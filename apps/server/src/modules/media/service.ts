import type { Readable } from 'node:stream';
import type { Media, MediaKind } from '@cadence/shared/schemas/media';
import { isForeignKeyViolation } from '../../db/pg-errors.ts';
import { AppError } from '../../lib/app-error.ts';
import type { ByteRange } from '../../storage/media-storage.ts';
import type { MediaServiceDeps } from './media-deps.ts';
import { createMediaIntake } from './media-intake.ts';
import { toMedia } from './media-view.ts';
import type { MediaRow } from './repository.ts';
import { createUploadReservations, tusUploadRemover } from './upload-reservations.ts';

// The other modules reach media through this file: its errors are theirs to catch.
export { MediaRejectedError, QuotaExceededError } from './media-errors.ts';

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

/**
 * Media a user owns: accepted uploads, rendered stories and compilations, each probed and
 * thumbnailed. Unfinished uploads and their quota are upload-reservations.ts'; files becoming
 * media, media-intake.ts'.
 */
export function createMediaService(deps: MediaServiceDeps) {
  const { repository, storage } = deps;
  const removeTusUpload = tusUploadRemover(storage);
  const reservations = createUploadReservations(deps, removeTusUpload);

  async function requireOwned(userId: string, id: string): Promise<MediaRow> {
    const row = await repository.findForUser(userId, id);
    if (!row) throw new AppError('not_found', 'No such media');
    return row;
  }

  return {
    ...reservations,
    ...createMediaIntake(deps, reservations, removeTusUpload),

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
