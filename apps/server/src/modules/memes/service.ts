import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  MAX_ACTIVE_MEME_ANALYSES_PER_USER,
  type CreateMemeAnalysisInput,
  type MemeAnalysis,
  type RecompileMemeInput,
} from '@cadence/shared/schemas/meme';
import type { Logger } from 'pino';
import { AppError } from '../../lib/app-error.ts';
import type { MediaService } from '../media/service.ts';
import type { UserRepository } from '../users/repository.ts';
import type { MediaStorage } from '../../storage/media-storage.ts';
import { StorageError } from '../../storage/media-storage.ts';
import { sourceMediaOf } from './meme-stages.ts';
import { memeAnalysisView } from './meme-view.ts';
import type { MemeAnalysisRow, MemeRepository } from './repository.ts';

export interface MemeServiceDeps {
  repository: MemeRepository;
  media: MediaService;
  storage: MediaStorage;
  users: Pick<UserRepository, 'isPro'>;
  /** Queue the first stage (pg-boss 'memes.analyse'). */
  enqueueAnalysis: (analysisId: string) => Promise<void>;
  /** Queue the compilation (pg-boss 'memes.compile'). */
  enqueueCompilation: (analysisId: string) => Promise<void>;
  /** Stops the analysis's stage if it runs in this process (meme-stages.ts `stop`). */
  stopRunning: (analysisId: string, why: string) => void;
  logger: Logger;
  /** Active analyses allowed per user (default MAX_ACTIVE_MEME_ANALYSES_PER_USER). */
  maxActivePerUser?: number;
}

/**
 * The meme detector (Pro), as the API sees it: requests, reads, cancel, recompile, thumbnails.
 * The work itself runs in the worker's stages (meme-stages.ts).
 */
export function createMemeService(deps: MemeServiceDeps) {
  const { repository, media, storage, users, logger } = deps;
  const maxActive = deps.maxActivePerUser ?? MAX_ACTIVE_MEME_ANALYSES_PER_USER;

  async function assertPro(userId: string): Promise<void> {
    if (!(await users.isPro(userId))) {
      throw new AppError('pro_required', 'The meme detector is a Pro feature');
    }
  }

  async function toAnalyses(userId: string, rows: MemeAnalysisRow[]): Promise<MemeAnalysis[]> {
    const results = await media.viewsById(
      userId,
      rows.flatMap((row) => (row.result_media_id ? [row.result_media_id] : [])),
    );
    return rows.map((row) =>
      memeAnalysisView(row, (row.result_media_id && results.get(row.result_media_id)) || null),
    );
  }

  async function toAnalysis(userId: string, row: MemeAnalysisRow): Promise<MemeAnalysis> {
    const [analysis] = await toAnalyses(userId, [row]);
    if (!analysis) throw new Error('unreachable: one row in, one analysis out');
    return analysis;
  }

  async function requireAnalysis(userId: string, id: string): Promise<MemeAnalysisRow> {
    const row = await repository.findForUser(userId, id);
    if (!row) throw new AppError('not_found', 'No such analysis');
    return row;
  }

  return {
    assertPro,

    async list(userId: string): Promise<MemeAnalysis[]> {
      await assertPro(userId);
      return toAnalyses(userId, await repository.listForUser(userId));
    },

    async get(userId: string, id: string): Promise<MemeAnalysis> {
      await assertPro(userId);
      return toAnalysis(userId, await requireAnalysis(userId, id));
    },

    /** Records the request and queues its first stage; an uploaded source must be the user's. */
    async create(userId: string, input: Required<CreateMemeAnalysisInput>): Promise<MemeAnalysis> {
      await assertPro(userId);
      const { source, layout } = input;
      if (source.type === 'media') {
        const [owned] = await media.findMany(userId, [source.mediaId]);
        if (!owned) {
          throw new AppError('validation_failed', 'Unknown video', {
            'source.mediaId': 'errors.invalidVideo',
          });
        }
      }
      const row = await repository.insertWithinLimit(
        {
          id: randomUUID(),
          user_id: userId,
          source_type: source.type,
          source_url: source.type === 'youtube' ? source.url : null,
          source_media_id: source.type === 'media' ? source.mediaId : null,
          layout,
        },
        maxActive,
      );
      if (!row) {
        throw new AppError('rate_limited', 'Too many analyses running', {
          memes: 'memes.errors.tooManyAnalyses',
        });
      }
      try {
        await deps.enqueueAnalysis(row.id);
      } catch (error) {
        logger.error({ err: error }, 'could not queue a meme analysis');
        await repository.failUnleased(row.id, 'memes.failures.failed');
        throw new AppError('unavailable', 'Analysis queue unavailable');
      }
      return toAnalysis(userId, row);
    },

    /** Stops whatever runs (download, analysis, compilation); the row says 'cancelled'. */
    async cancel(userId: string, id: string): Promise<MemeAnalysis> {
      await assertPro(userId);
      const cancelled = await repository.cancel(userId, id);
      if (!cancelled) {
        await requireAnalysis(userId, id);
        throw new AppError('conflict', 'The analysis is not running', {
          memes: 'memes.errors.notCancellable',
        });
      }
      deps.stopRunning(id, 'cancelled');
      return toAnalysis(userId, cancelled);
    },

    /** A new compilation of the chosen extracts, in the chosen layout; the analysis is kept. */
    async recompile(userId: string, id: string, input: RecompileMemeInput): Promise<MemeAnalysis> {
      await assertPro(userId);
      const row = await requireAnalysis(userId, id);
      const extracts = row.extracts ?? [];
      const wanted = new Set(input.selectedIndexes);
      if (input.selectedIndexes.some((index) => !extracts.some((e) => e.index === index))) {
        throw new AppError('validation_failed', 'Unknown extract', {
          selectedIndexes: 'memes.errors.selectExtract',
        });
      }
      if (row.source_type === 'media')
        await sourceMediaOf(media, row).catch(() => {
          throw new AppError('conflict', 'The source video was deleted', {
            memes: 'memes.failures.source_missing',
          });
        });
      const updated = await repository.requestRecompile(
        userId,
        id,
        extracts.map((extract) => ({ ...extract, selected: wanted.has(extract.index) })),
        input.layout,
      );
      if (!updated) {
        throw new AppError('conflict', 'The analysis is still running or has no extracts', {
          memes: 'memes.errors.notRecompilable',
        });
      }
      try {
        await deps.enqueueCompilation(id);
      } catch (error) {
        logger.error({ err: error }, 'could not queue a meme compilation');
        await repository.failUnleased(id, 'memes.failures.failed');
        throw new AppError('unavailable', 'Compilation queue unavailable');
      }
      return toAnalysis(userId, updated);
    },

    /** The JPEG of one extract (owner only). */
    async openThumbnail(userId: string, id: string, index: number): Promise<Readable> {
      await assertPro(userId);
      const row = await requireAnalysis(userId, id);
      const extract = (row.extracts ?? []).find((candidate) => candidate.index === index);
      if (!extract?.thumbnailKey) throw new AppError('not_found', 'No thumbnail');
      return storage.createReadStream(extract.thumbnailKey).catch((error: unknown) => {
        throw error instanceof StorageError ? new AppError('not_found', 'No thumbnail') : error;
      });
    },
  };
}

export type MemeService = ReturnType<typeof createMemeService>;
