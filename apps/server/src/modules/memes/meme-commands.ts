import { randomUUID } from 'node:crypto';
import {
  MAX_ACTIVE_MEME_ANALYSES_PER_USER,
  type CreateMemeAnalysisInput,
  type MemeAnalysis,
  type RecompileMemeInput,
} from '@cadence/shared/schemas/meme';
import type { Logger } from 'pino';
import { AppError } from '../../lib/app-error.ts';
import type { MediaService } from '../media/service.ts';
import type { MemeAccess } from './meme-access.ts';
import { sourceMediaOf } from './meme-source.ts';
import type { MemeAnalysisRow, MemeRepository } from './repository.ts';

export interface MemeCommandsDeps {
  repository: MemeRepository;
  media: MediaService;
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

/** What the log and the answer say when a stage's queue refuses a job. */
const QUEUE_REFUSED = {
  analysis: { log: 'could not queue a meme analysis', message: 'Analysis queue unavailable' },
  compilation: {
    log: 'could not queue a meme compilation',
    message: 'Compilation queue unavailable',
  },
};

/** The extracts of `row` with the chosen ones selected; a validation error for an unknown one. */
function selectExtracts(row: MemeAnalysisRow, selectedIndexes: number[]) {
  const extracts = row.extracts ?? [];
  const wanted = new Set(selectedIndexes);
  if (selectedIndexes.some((index) => !extracts.some((e) => e.index === index))) {
    throw new AppError('validation_failed', 'Unknown extract', {
      selectedIndexes: 'memes.errors.selectExtract',
    });
  }
  return extracts.map((extract) => ({ ...extract, selected: wanted.has(extract.index) }));
}

/** What a user asks of the detector: an analysis, its cancel, a new compilation. */
export function createMemeCommands(deps: MemeCommandsDeps, access: MemeAccess) {
  const { repository, media, logger } = deps;
  const maxActive = deps.maxActivePerUser ?? MAX_ACTIVE_MEME_ANALYSES_PER_USER;

  /** Queues a stage; when the queue refuses, the row is failed and the request answered 503. */
  async function enqueueOrFail(
    id: string,
    enqueue: (analysisId: string) => Promise<void>,
    stage: keyof typeof QUEUE_REFUSED,
  ): Promise<void> {
    try {
      await enqueue(id);
    } catch (error) {
      logger.error({ err: error }, QUEUE_REFUSED[stage].log);
      await repository.failUnleased(id, 'memes.failures.failed');
      throw new AppError('unavailable', QUEUE_REFUSED[stage].message);
    }
  }

  return {
    /** Records the request and queues its first stage; an uploaded source must be the user's. */
    async create(userId: string, input: Required<CreateMemeAnalysisInput>): Promise<MemeAnalysis> {
      await access.assertPro(userId);
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
      await enqueueOrFail(row.id, deps.enqueueAnalysis, 'analysis');
      return access.toAnalysis(userId, row);
    },

    /** Stops whatever runs (download, analysis, compilation); the row says 'cancelled'. */
    async cancel(userId: string, id: string): Promise<MemeAnalysis> {
      await access.assertPro(userId);
      const cancelled = await repository.cancel(userId, id);
      if (!cancelled) {
        await access.requireAnalysis(userId, id);
        throw new AppError('conflict', 'The analysis is not running', {
          memes: 'memes.errors.notCancellable',
        });
      }
      deps.stopRunning(id, 'cancelled');
      return access.toAnalysis(userId, cancelled);
    },

    /** A new compilation of the chosen extracts, in the chosen layout; the analysis is kept. */
    async recompile(userId: string, id: string, input: RecompileMemeInput): Promise<MemeAnalysis> {
      await access.assertPro(userId);
      const row = await access.requireAnalysis(userId, id);
      const extracts = selectExtracts(row, input.selectedIndexes);
      if (row.source_type === 'media')
        await sourceMediaOf(media, row).catch(() => {
          throw new AppError('conflict', 'The source video was deleted', {
            memes: 'memes.failures.source_missing',
          });
        });
      const updated = await repository.requestRecompile(userId, id, extracts, input.layout);
      if (!updated) {
        throw new AppError('conflict', 'The analysis is still running or has no extracts', {
          memes: 'memes.errors.notRecompilable',
        });
      }
      await enqueueOrFail(id, deps.enqueueCompilation, 'compilation');
      return access.toAnalysis(userId, updated);
    },
  };
}
