import { randomUUID } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { Media } from '@cadence/shared/schemas/media';
import {
  MAX_ACTIVE_MEME_ANALYSES_PER_USER,
  type CreateMemeAnalysisInput,
  type MemeAnalysis,
  type MemeFailReason,
  type RecompileMemeInput,
} from '@cadence/shared/schemas/meme';
import type { Logger } from 'pino';
import { MAX_JOB_ATTEMPTS } from '../../jobs/queue.ts';
import { AppError } from '../../lib/app-error.ts';
import { newLease, type Lease } from '../../db/lease.ts';
import { leaseLoss, startHeartbeat, type LeaseLostError } from '../../lib/heartbeat.ts';
import { createProgressWriter } from '../../lib/progress-writer.ts';
import { expectedRenderBytes, QuotaExceededError, type MediaService } from '../media/service.ts';
import type { UserRepository } from '../users/repository.ts';
import type { MediaStorage } from '../../storage/media-storage.ts';
import { StorageError, putLocalFile } from '../../storage/media-storage.ts';
import { makeWorkDir } from '../../lib/work-dir.ts';
import { VideoAnalysisError, analyzeVideo } from './engine/analyze.ts';
import type { X264Preset } from '../../media/x264.ts';
import { compileHighlights, extractThumbnails } from './engine/compile.ts';
import { HIGHLIGHT_MIN_SCORE } from './engine/scoring.ts';
import { VideoFetchError, fetchYouTubeVideo } from './engine/youtube.ts';
import { parseYouTubeUrl } from './engine/youtube-url.ts';
import type { StoredExtract } from './db-types.ts';
import type { MemeAnalysisRow, MemeRepository } from './repository.ts';
import type { Notify } from '../notifications/service.ts';

/** How often a running stage renews its lease, which also tells it of a cancel (any process). */
export const HEARTBEAT_MS = 500;
/** A stage's lease: an active analysis whose lease ran out (its worker died) runs its stage again. */
export const LEASE_MS = 60_000;

export type StageOutcome = 'completed' | 'failed' | 'cancelled' | 'skipped';

export interface MemeServiceDeps {
  repository: MemeRepository;
  media: MediaService;
  storage: MediaStorage;
  users: Pick<UserRepository, 'isPro'>;
  /** Queue the first stage (pg-boss 'memes.analyse'), optionally after a delay. */
  enqueueAnalysis: (analysisId: string, options?: { delaySeconds?: number }) => Promise<void>;
  /** Queue the compilation (pg-boss 'memes.compile'). */
  enqueueCompilation: (analysisId: string, options?: { delaySeconds?: number }) => Promise<void>;
  ffmpegPath: string;
  ffprobePath: string;
  ytDlpPath: string;
  /**
   * Tests and benchmarks only (YOUTUBE_TEST_ORIGIN): the loopback origin yt-dlp fetches a link's
   * video id from, in YouTube's place. Null: YouTube itself.
   */
  youtubeTestOrigin?: string | null;
  /** x264 preset of the compilation (default 'veryfast'). */
  compilePreset?: X264Preset;
  logger: Logger;
  /** Tells the owner its compilation is ready (bell, email). */
  notify?: Notify;
  /** Active analyses allowed per user (default MAX_ACTIVE_MEME_ANALYSES_PER_USER). */
  maxActivePerUser?: number;
  /** A stage's lease and how often it is renewed (defaults LEASE_MS, HEARTBEAT_MS). */
  lease?: { ms: number; heartbeatMs: number };
}

class StageStoppedError extends Error {
  override name = 'StageStoppedError';
  constructor(
    message: string,
    /** 'unconfirmed': renewals never landed in time, and the stage may still be this run's. */
    readonly leaseLost: LeaseLostError['kind'] | null = null,
  ) {
    super(message);
  }
}

/** A stored source video the user deleted (or storage lost) while the analysis waited. */
class SourceMissingError extends Error {
  override name = 'SourceMissingError';
}

/** The translation key the user sees for a failure; internals stay in the log. */
export function failReasonFor(error: unknown): MemeFailReason {
  if (error instanceof VideoFetchError) return `memes.failures.${error.code}`;
  if (error instanceof VideoAnalysisError) return `memes.failures.${error.code}`;
  if (error instanceof SourceMissingError) return 'memes.failures.source_missing';
  if (error instanceof QuotaExceededError) return 'memes.failures.quota_full';
  if (error instanceof StorageError && error.code === 'not_found') {
    return 'memes.failures.source_missing';
  }
  return 'memes.failures.failed';
}

const thumbnailKey = (row: MemeAnalysisRow, index: number) =>
  `users/${row.user_id}/memes/${row.id}/${index}.jpg`;

function compilationName(title: string | null): string {
  const base = (title ?? '')
    .replace(/\.[^.]+$/, '')
    .replace(/[\\/:*?"<>|\p{Cc}]+/gu, ' ')
    .trim()
    .slice(0, 100);
  return `memes-${base || 'video'}.mp4`;
}

/** The meme detector (Pro): requests, reads, cancel, recompile, and the two worker stages. */
export function createMemeService(deps: MemeServiceDeps) {
  const { repository, media, storage, users, logger } = deps;
  const maxActive = deps.maxActivePerUser ?? MAX_ACTIVE_MEME_ANALYSES_PER_USER;
  const { ms: leaseMs, heartbeatMs } = deps.lease ?? { ms: LEASE_MS, heartbeatMs: HEARTBEAT_MS };
  /** Stages running in this process, so a cancel here stops the tool at once (others poll). */
  const running = new Map<string, AbortController>();

  async function assertPro(userId: string): Promise<void> {
    if (!(await users.isPro(userId))) {
      throw new AppError('pro_required', 'The meme detector is a Pro feature');
    }
  }

  async function toAnalyses(userId: string, rows: MemeAnalysisRow[]): Promise<MemeAnalysis[]> {
    const resultIds = rows.flatMap((row) => (row.result_media_id ? [row.result_media_id] : []));
    const results = new Map<string, Media>(
      (await media.findMany(userId, resultIds)).map((row) => [row.id, media.toMedia(row)]),
    );
    return rows.map((row) => {
      const base = `/api/memes/${encodeURIComponent(row.id)}`;
      return {
        id: row.id,
        status: row.status,
        progress: row.progress,
        source:
          row.source_type === 'youtube'
            ? { type: 'youtube', url: row.source_url ?? '' }
            : { type: 'media', mediaId: row.source_media_id },
        layout: row.layout,
        title: row.title,
        durationSeconds: row.duration_seconds,
        shorterThanTarget: row.shorter_than_target,
        extracts: (row.extracts ?? []).map((extract) => ({
          index: extract.index,
          startSeconds: extract.startSeconds,
          endSeconds: extract.endSeconds,
          score: extract.score,
          highlight: extract.score >= HIGHLIGHT_MIN_SCORE,
          thumbnailUrl: extract.thumbnailKey ? `${base}/extracts/${extract.index}/thumbnail` : null,
          selected: extract.selected,
        })),
        result: (row.result_media_id && results.get(row.result_media_id)) || null,
        failReason: row.fail_reason,
        createdAt: row.created_at.toISOString(),
      };
    });
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

  /**
   * Runs a claimed stage with a heartbeat: the lease is renewed every `heartbeatMs`; losing it
   * (cancel, recompile, takeover, from any process) aborts the stage. Progress writes are
   * throttled, kept in order, and never reach 1 (reserved for the finished row). The heartbeat has
   * stopped, and every write has landed, when this resolves: the caller can then hand the row over.
   */
  async function withLease<TResult>(
    id: string,
    lease: Lease,
    jobSignal: AbortSignal | undefined,
    fn: (signal: AbortSignal, onProgress: (fraction: number) => void) => Promise<TResult>,
  ): Promise<TResult> {
    // A cancel in this process stops the tool at once; elsewhere, the next renewal notices.
    const controller = new AbortController();
    running.set(id, controller);
    const progress = createProgressWriter({
      write: (fraction) => repository.setProgress(id, lease.owner, fraction),
      onError: (error) => logger.warn({ err: error, analysisId: id }, 'progress write failed'),
    });
    const heartbeat = startHeartbeat({
      intervalMs: heartbeatMs,
      renew: () => repository.renewLease(id, lease),
      lostAfterMs: lease.ms,
      since: lease.claimedAt,
      // An abandoned job (see jobs/queue.ts) stops its tools and lets its lease lapse, like a cancel.
      signal: jobSignal ? AbortSignal.any([controller.signal, jobSignal]) : controller.signal,
      onError: (error) => logger.warn({ err: error, analysisId: id }, 'meme lease renewal failed'),
    });
    let outcome: { ok: true; value: TResult } | { ok: false; error: unknown };
    try {
      outcome = { ok: true, value: await fn(heartbeat.signal, progress.onProgress) };
    } catch (error) {
      outcome = { ok: false, error };
    }
    await heartbeat.stop();
    await progress.settled();
    if (running.get(id) === controller) running.delete(id);
    // Once the lease is gone nobody wants the stage's result, whatever it resolved with.
    if (heartbeat.signal.aborted) {
      throw new StageStoppedError('stopped', leaseLoss(heartbeat.signal));
    }
    if (!outcome.ok) throw outcome.error;
    return outcome.value;
  }

  /** Queues again a stage whose lease went unconfirmed, if it was still `owner`'s. */
  async function handBack(id: string, owner: string, stage: 'analyse' | 'compile'): Promise<void> {
    try {
      if (!(await repository.handBack(id, owner))) return;
      logger.warn({ analysisId: id, stage }, 'lease not renewed in time: meme stage handed back');
      await (stage === 'compile' ? deps.enqueueCompilation(id) : deps.enqueueAnalysis(id));
    } catch (error) {
      logger.warn(
        { err: error, analysisId: id },
        'could not hand back a meme stage after a slow lease',
      );
    }
  }

  /** Logs and records a failed stage; a stopped one (cancel) is just reported. */
  async function settleFailure(
    row: MemeAnalysisRow,
    lease: Lease,
    error: unknown,
    stage: 'analyse' | 'compile',
  ): Promise<StageOutcome> {
    if (error instanceof StageStoppedError) {
      logger.info({ analysisId: row.id, stage }, 'meme stage stopped');
      // Stopped by renewals that never landed, the stage may still be ours: handed back now (the
      // heartbeat has stopped), rather than left running in name until a worker restarts.
      if (error.leaseLost === 'unconfirmed') await handBack(row.id, lease.owner, stage);
      return 'cancelled';
    }
    const reason = failReasonFor(error);
    if (reason === 'memes.failures.failed') {
      logger.error({ err: error, analysisId: row.id, stage }, 'meme stage failed');
    } else {
      logger.info({ analysisId: row.id, stage, reason, err: error }, 'meme stage refused');
    }
    await repository.fail(row.id, lease.owner, reason);
    return 'failed';
  }

  /** The user's uploaded source, or SourceMissingError. */
  async function sourceMedia(row: MemeAnalysisRow) {
    const [source] = row.source_media_id
      ? await media.findMany(row.user_id, [row.source_media_id])
      : [];
    if (!source) throw new SourceMissingError('the uploaded video was deleted');
    return source;
  }

  /** Runs `fn` with the source video on local disk (stored download or uploaded media). */
  async function withSourceFile<TResult>(
    row: MemeAnalysisRow,
    fn: (localPath: string) => Promise<TResult>,
  ): Promise<TResult> {
    if (row.source_type === 'youtube') {
      if (!row.source_key) throw new SourceMissingError('the download was not stored');
      return storage.withLocalFile(row.source_key, fn);
    }
    return media.withLocalFile(await sourceMedia(row), fn);
  }

  /** Download (links), analysis and thumbnails; hands over to the compile job. */
  async function analyseClaimed(
    row: MemeAnalysisRow,
    lease: Lease,
    workDir: string,
    jobSignal?: AbortSignal,
  ): Promise<void> {
    const analysis = await withLease(row.id, lease, jobSignal, async (signal, onProgress) => {
      let downloadedPath: string | null = null;
      if (row.source_type === 'youtube') {
        // Checked again before anything is fetched, not only at the API: a row stored under an
        // older rule must not hand yt-dlp whatever text it holds.
        const link = parseYouTubeUrl(row.source_url ?? '');
        if (!link) {
          throw new VideoFetchError('unavailable', 'the stored link is not a YouTube link');
        }
        const outputDir = path.join(workDir, 'download');
        await mkdir(outputDir);
        const fetched = await fetchYouTubeVideo({
          ytDlpPath: deps.ytDlpPath,
          link,
          testOrigin: deps.youtubeTestOrigin ?? null,
          outputDir,
          ffmpegPath: deps.ffmpegPath,
          signal,
          onProgress,
        });
        const extension = path.extname(fetched.filePath).slice(1) === 'webm' ? 'webm' : 'mp4';
        const sourceKey = `users/${row.user_id}/memes/${row.id}/source.${extension}`;
        await putLocalFile(storage, sourceKey, fetched.filePath, {
          contentType: `video/${extension}`,
        });
        const stillOurs = await repository.downloaded(row.id, lease.owner, {
          sourceKey,
          title: fetched.metadata.title,
          durationSeconds: fetched.metadata.durationSeconds,
        });
        if (!stillOurs) throw new StageStoppedError('cancelled after the download');
        downloadedPath = fetched.filePath;
      } else {
        const source = await sourceMedia(row);
        await repository.setTitle(row.id, lease.owner, source.original_name);
      }
      const run = async (inputPath: string) => {
        const tempDir = path.join(workDir, 'analysis');
        await mkdir(tempDir, { recursive: true });
        const result = await analyzeVideo({
          ffmpegPath: deps.ffmpegPath,
          ffprobePath: deps.ffprobePath,
          inputPath,
          signal,
          onProgress: (fraction) => onProgress(fraction * 0.9),
          tempDir,
        });
        let thumbnails: (string | null)[] = result.extracts.map(() => null);
        try {
          thumbnails = await extractThumbnails({
            ffmpegPath: deps.ffmpegPath,
            inputPath,
            extracts: result.extracts,
            outputDir: workDir,
            signal,
          });
        } catch (error) {
          if (signal.aborted) throw error;
          // Extracts without pictures are still extracts: the list shows a placeholder.
          logger.warn({ err: error, analysisId: row.id }, 'meme thumbnails failed');
        }
        return { result, thumbnails };
      };
      return downloadedPath ? run(downloadedPath) : withSourceFile(row, run);
    });

    const extracts: StoredExtract[] = [];
    for (const [index, extract] of analysis.result.extracts.entries()) {
      const file = analysis.thumbnails[index];
      let key: string | null = null;
      if (file) {
        key = thumbnailKey(row, index);
        await putLocalFile(storage, key, file, { contentType: 'image/jpeg' });
      }
      extracts.push({
        index,
        startSeconds: extract.startSeconds,
        endSeconds: extract.endSeconds,
        score: Math.min(1, Math.max(0, extract.score)),
        peakSeconds: extract.peakSeconds,
        selected: true,
        thumbnailKey: key,
      });
    }
    const handedOver = await repository.analysed(row.id, lease.owner, {
      durationSeconds: analysis.result.durationSeconds,
      hasAudio: analysis.result.hasAudio,
      shorterThanTarget: analysis.result.shorterThanTarget,
      extracts,
    });
    if (!handedOver) throw new StageStoppedError('cancelled after the analysis');
    await deps.enqueueCompilation(row.id);
  }

  async function compileClaimed(
    row: MemeAnalysisRow,
    lease: Lease,
    workDir: string,
    jobSignal?: AbortSignal,
  ) {
    const selected = (row.extracts ?? []).filter((extract) => extract.selected);
    if (selected.length === 0) throw new Error('a compilation needs at least one extract');
    const outputPath = path.join(workDir, 'compilation.mp4');
    // No compilation the user has no room to keep (the stored file's real size is checked again).
    const seconds = selected.reduce(
      (sum, extract) => sum + Math.max(0, extract.endSeconds - extract.startSeconds),
      0,
    );
    await media.assertRoomFor(row.user_id, expectedRenderBytes(seconds));
    await withLease(row.id, lease, jobSignal, (signal, onProgress) =>
      withSourceFile(row, (inputPath) =>
        compileHighlights({
          ffmpegPath: deps.ffmpegPath,
          inputPath,
          extracts: selected,
          layout: row.layout,
          hasAudio: row.has_audio ?? false,
          outputPath,
          preset: deps.compilePreset ?? 'veryfast',
          signal,
          onProgress,
        }),
      ),
    );
    const result = await media.createFromFile(row.user_id, {
      localPath: outputPath,
      kind: 'compilation',
      originalName: compilationName(row.title),
    });
    if (!(await repository.complete(row.id, lease.owner, result.id))) {
      await discardMedia(row.user_id, result.id);
      throw new StageStoppedError('cancelled after the compilation');
    }
    // A recompile is a new compilation: the lease that completed it names the event.
    await deps.notify?.({
      userId: row.user_id,
      type: 'compilation_ready',
      dedupeKey: `compilation_ready:${row.id}:${lease.owner}`,
      data: { analysisId: row.id },
    });
    // The previous compilation is superseded; one already scheduled stays (media refuses).
    if (row.result_media_id && row.result_media_id !== result.id) {
      await discardMedia(row.user_id, row.result_media_id);
    }
  }

  async function discardMedia(userId: string, mediaId: string): Promise<void> {
    await media.remove(userId, mediaId).catch((error: unknown) => {
      logger.info({ err: error, mediaId }, 'an unwanted compilation was kept');
    });
  }

  /** Claims with a fresh lease, runs `fn` in a temporary directory, records the outcome. */
  async function runStage(
    stage: 'analyse' | 'compile',
    analysisId: string,
    jobSignal: AbortSignal | undefined,
    fn: (
      row: MemeAnalysisRow,
      lease: Lease,
      workDir: string,
      jobSignal?: AbortSignal,
    ) => Promise<void>,
  ): Promise<StageOutcome> {
    const lease = newLease(leaseMs);
    const row =
      stage === 'analyse'
        ? await repository.claimAnalysis(analysisId, lease)
        : await repository.claimCompilation(analysisId, lease);
    if (!row) return 'skipped';
    // Every earlier run of this stage since the last one that finished died with its process:
    // running it again would take the worker down again. The claim counted this run too.
    if (row.unfinished_runs > MAX_JOB_ATTEMPTS) {
      logger.error(
        { analysisId, stage, unfinishedRuns: row.unfinished_runs - 1 },
        'meme stage crashed its worker too often: failed, not run again',
      );
      await repository.fail(row.id, lease.owner, 'memes.failures.crashed');
      return 'failed';
    }
    const workDir = await makeWorkDir(`memes-${stage}-`);
    try {
      await fn(row, lease, workDir, jobSignal);
      logger.info({ analysisId, stage }, 'meme stage finished');
      return 'completed';
    } catch (error) {
      return settleFailure(row, lease, error, stage);
    } finally {
      await rm(workDir, { recursive: true, force: true });
    }
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
      running.get(id)?.abort(new StageStoppedError('cancelled'));
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
        await sourceMedia(row).catch(() => {
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

    /** Worker, 'memes.analyse': download (links), analysis, thumbnails → queues the compile. */
    analyse: (analysisId: string, jobSignal?: AbortSignal) =>
      runStage('analyse', analysisId, jobSignal, analyseClaimed),

    /** Worker, 'memes.compile': the 1080×1920 compilation of the selected extracts → media. */
    compile: (analysisId: string, jobSignal?: AbortSignal) =>
      runStage('compile', analysisId, jobSignal, compileClaimed),

    /** The stage's job failed MAX_JOB_ATTEMPTS times: the row says so, if still in that stage. */
    async giveUp(stage: 'analyse' | 'compile', analysisId: string): Promise<void> {
      await repository.failStage(
        analysisId,
        stage === 'analyse' ? ['queued', 'downloading', 'analysing'] : ['compiling'],
        'memes.failures.crashed',
      );
    },

    /**
     * At worker start: queue again what a stopped process left behind. A running stage is retried
     * once its lease can have run out; if a worker is in fact still on it, the claim finds the
     * lease renewed and the job does nothing.
     */
    async recoverInterrupted(): Promise<number> {
      const rows = await repository.findInterrupted();
      const delaySeconds = Math.ceil(leaseMs / 1000) + 5;
      for (const row of rows) {
        if (row.status === 'compiling') await deps.enqueueCompilation(row.id, { delaySeconds });
        else if (row.status === 'queued') await deps.enqueueAnalysis(row.id);
        else await deps.enqueueAnalysis(row.id, { delaySeconds });
      }
      return rows.length;
    },
  };
}

export type MemeService = ReturnType<typeof createMemeService>;
