import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import { MAX_JOB_ATTEMPTS } from '../../jobs/queue.ts';
import { MEDIA_JOB_LEASE, newLease, type Lease } from '../../db/lease.ts';
import { leaseLoss, startHeartbeat } from '../../lib/heartbeat.ts';
import { createProgressWriter } from '../../lib/progress-writer.ts';
import { makeWorkDir } from '../../lib/work-dir.ts';
import type { X264Preset } from '../../media/x264.ts';
import type { MediaStorage } from '../../storage/media-storage.ts';
import { putLocalFile } from '../../storage/media-storage.ts';
import type { MediaRow } from '../media/repository.ts';
import { expectedRenderBytes, type MediaService } from '../media/service.ts';
import type { Notify } from '../notifications/service.ts';
import { analyzeVideo } from './engine/analyze.ts';
import { compileHighlights, extractThumbnails } from './engine/compile.ts';
import { VideoFetchError, fetchYouTubeVideo } from './engine/youtube.ts';
import { parseYouTubeUrl } from './engine/youtube-url.ts';
import {
  compilationName,
  compilationPlan,
  downloadKey,
  failReasonFor,
  recoveryOf,
  SourceMissingError,
  stageStatuses,
  StageStoppedError,
  storedExtracts,
  thumbnailKey,
  type MemeStage,
  type StageOutcome,
} from './meme-state.ts';
import type { MemeAnalysisRow, MemeRepository } from './repository.ts';

export interface MemeStagesDeps {
  repository: MemeRepository;
  media: MediaService;
  storage: MediaStorage;
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
  /** A stage's lease and how often it is renewed (default MEDIA_JOB_LEASE). */
  lease?: { ms: number; heartbeatMs: number };
}

/** The user's uploaded source of an analysis, or SourceMissingError. */
export async function sourceMediaOf(
  media: Pick<MediaService, 'findMany'>,
  row: MemeAnalysisRow,
): Promise<MediaRow> {
  const [source] = row.source_media_id
    ? await media.findMany(row.user_id, [row.source_media_id])
    : [];
  if (!source) throw new SourceMissingError('the uploaded video was deleted');
  return source;
}

/**
 * The meme detector's two worker stages ('memes.analyse': download, analysis, thumbnails;
 * 'memes.compile': the 1080×1920 compilation), each run under a lease renewed by a heartbeat.
 */
export function createMemeStages(deps: MemeStagesDeps) {
  const { repository, media, storage, logger } = deps;
  const { ms: leaseMs, heartbeatMs } = deps.lease ?? MEDIA_JOB_LEASE;
  /** Stages running in this process, so a cancel here stops the tool at once (others poll). */
  const running = new Map<string, AbortController>();

  const enqueueStage = (stage: MemeStage, id: string, options?: { delaySeconds?: number }) =>
    stage === 'compile' ? deps.enqueueCompilation(id, options) : deps.enqueueAnalysis(id, options);

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
  async function handBack(id: string, owner: string, stage: MemeStage): Promise<void> {
    try {
      if (!(await repository.handBack(id, owner))) return;
      logger.warn({ analysisId: id, stage }, 'lease not renewed in time: meme stage handed back');
      await enqueueStage(stage, id);
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
    stage: MemeStage,
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

  /** Runs `fn` with the source video on local disk (stored download or uploaded media). */
  async function withSourceFile<TResult>(
    row: MemeAnalysisRow,
    fn: (localPath: string) => Promise<TResult>,
  ): Promise<TResult> {
    if (row.source_type === 'youtube') {
      if (!row.source_key) throw new SourceMissingError('the download was not stored');
      return storage.withLocalFile(row.source_key, fn);
    }
    return media.withLocalFile(await sourceMediaOf(media, row), fn);
  }

  /** A link's video, downloaded into `workDir` and stored; its local path. */
  async function download(
    row: MemeAnalysisRow,
    lease: Lease,
    workDir: string,
    signal: AbortSignal,
    onProgress: (fraction: number) => void,
  ): Promise<string> {
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
    const stored = downloadKey(row, fetched.filePath);
    await putLocalFile(storage, stored.key, fetched.filePath, { contentType: stored.contentType });
    const stillOurs = await repository.downloaded(row.id, lease.owner, {
      sourceKey: stored.key,
      title: fetched.metadata.title,
      durationSeconds: fetched.metadata.durationSeconds,
    });
    if (!stillOurs) throw new StageStoppedError('cancelled after the download');
    return fetched.filePath;
  }

  /** Scores the video at `inputPath` and grabs a thumbnail per extract. */
  async function analyseFile(
    row: MemeAnalysisRow,
    inputPath: string,
    workDir: string,
    signal: AbortSignal,
    onProgress: (fraction: number) => void,
  ) {
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
  }

  /** Download (links), analysis and thumbnails; hands over to the compile job. */
  async function analyseClaimed(
    row: MemeAnalysisRow,
    lease: Lease,
    workDir: string,
    jobSignal?: AbortSignal,
  ): Promise<void> {
    const analysis = await withLease(row.id, lease, jobSignal, async (signal, onProgress) => {
      if (row.source_type === 'youtube') {
        const downloadedPath = await download(row, lease, workDir, signal, onProgress);
        return analyseFile(row, downloadedPath, workDir, signal, onProgress);
      }
      const source = await sourceMediaOf(media, row);
      await repository.setTitle(row.id, lease.owner, source.original_name);
      return withSourceFile(row, (inputPath) =>
        analyseFile(row, inputPath, workDir, signal, onProgress),
      );
    });

    const keys: (string | null)[] = [];
    for (const [index, file] of analysis.thumbnails.entries()) {
      if (!file) {
        keys.push(null);
        continue;
      }
      keys.push(thumbnailKey(row, index));
      await putLocalFile(storage, thumbnailKey(row, index), file, { contentType: 'image/jpeg' });
    }
    const handedOver = await repository.analysed(row.id, lease.owner, {
      durationSeconds: analysis.result.durationSeconds,
      hasAudio: analysis.result.hasAudio,
      shorterThanTarget: analysis.result.shorterThanTarget,
      extracts: storedExtracts(analysis.result.extracts, keys),
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
    const { selected, seconds } = compilationPlan(row.extracts);
    if (selected.length === 0) throw new Error('a compilation needs at least one extract');
    const outputPath = path.join(workDir, 'compilation.mp4');
    // No compilation the user has no room to keep (the stored file's real size is checked again).
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
    stage: MemeStage,
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
    /** Worker, 'memes.analyse': download (links), analysis, thumbnails → queues the compile. */
    analyse: (analysisId: string, jobSignal?: AbortSignal) =>
      runStage('analyse', analysisId, jobSignal, analyseClaimed),

    /** Worker, 'memes.compile': the 1080×1920 compilation of the selected extracts → media. */
    compile: (analysisId: string, jobSignal?: AbortSignal) =>
      runStage('compile', analysisId, jobSignal, compileClaimed),

    /** Stops the analysis's stage if it runs in this process (a cancel: others see the row). */
    stop(analysisId: string, why: string): void {
      running.get(analysisId)?.abort(new StageStoppedError(why));
    },

    /** The stage's job failed MAX_JOB_ATTEMPTS times: the row says so, if still in that stage. */
    async giveUp(stage: MemeStage, analysisId: string): Promise<void> {
      await repository.failStage(analysisId, stageStatuses(stage), 'memes.failures.crashed');
    },

    /** At worker start: queue again what a stopped process left behind (see recoveryOf). */
    async recoverInterrupted(): Promise<number> {
      const rows = await repository.findInterrupted();
      for (const row of rows) {
        const { stage, delaySeconds } = recoveryOf(row.status, leaseMs);
        await enqueueStage(
          stage,
          row.id,
          delaySeconds === undefined ? undefined : { delaySeconds },
        );
      }
      return rows.length;
    },
  };
}

export type MemeStages = ReturnType<typeof createMemeStages>;
