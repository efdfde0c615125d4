import type { Readable } from 'node:stream';
import type { MemeAnalysis } from '@cadence/shared/schemas/meme';
import { AppError } from '../../lib/app-error.ts';
import type { MediaStorage } from '../../storage/media-storage.ts';
import { StorageError } from '../../storage/media-storage.ts';
import type { MemeAccess } from './meme-access.ts';
import type { MemeRepository } from './repository.ts';

export interface MemeQueriesDeps {
  repository: MemeRepository;
  storage: MediaStorage;
}

/** What a user reads of their analyses: the list, one analysis, an extract's thumbnail. */
export function createMemeQueries({ repository, storage }: MemeQueriesDeps, access: MemeAccess) {
  return {
    async list(userId: string): Promise<MemeAnalysis[]> {
      await access.assertPro(userId);
      return access.toAnalyses(userId, await repository.listForUser(userId));
    },

    async get(userId: string, id: string): Promise<MemeAnalysis> {
      await access.assertPro(userId);
      return access.toAnalysis(userId, await access.requireAnalysis(userId, id));
    },

    /** The JPEG of one extract (owner only). */
    async openThumbnail(userId: string, id: string, index: number): Promise<Readable> {
      await access.assertPro(userId);
      const row = await access.requireAnalysis(userId, id);
      const extract = (row.extracts ?? []).find((candidate) => candidate.index === index);
      if (!extract?.thumbnailKey) throw new AppError('not_found', 'No thumbnail');
      return storage.createReadStream(extract.thumbnailKey).catch((error: unknown) => {
        throw error instanceof StorageError ? new AppError('not_found', 'No thumbnail') : error;
      });
    },
  };
}
