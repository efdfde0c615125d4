import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import { MAX_JOB_ATTEMPTS } from '../../jobs/queue.ts';
import { MEDIA_JOB_LEASE, newLease } from '../../db/lease.ts';
import { leaseLoss, startHeartbeat } from '../../lib/heartbeat.ts';
import { createProgressWriter } from '../../lib/progress-writer.ts';
import { makeWorkDir } from '../../lib/work-dir.ts';
import { expectedRenderBytes, QuotaExceededError, type MediaService } from '../media/service.ts';
import type { Notify } from '../notifications/service.ts';
import { renderStory } from './render/render-story.ts';
import { storyDurationSeconds } from './render/story-render-args.ts';
import type { StoryRepository, StoryRow } from './repository.ts';
import {
  failReasonFor,
  recoveryDelaySeconds,
  StoryCancelledError,
  storyFileName,
  type RenderOutcome,
} from './story-state.ts';

export interface StoryRendererDeps {
  repository: StoryRepository;
  media: MediaService;
  /** Queues the render job (pg-boss 'stories.render'), optionally to start after a delay. */
  enqueue: (storyId: string, options?: { delaySeconds?: number }) => Promise<void>;
  ffmpegPath: string;
  logger: Logger;
  /** Tells the owner its story is ready (bell, email). */
  notify?: Notify;
  /** The render's lease and how often it is renewed (default MEDIA_JOB_LEASE). */
  lease?: { ms: number; heartbeatMs: number };
}

/** Removes the result of a render nobody wants any more (cancelled or deleted meanwhile). */
export async function discardRender(
  media: Pick<MediaService, 'remove'>,
  logger: Pick<Logger, 'warn'>,
  userId: string,
  mediaId: string,
): Promise<void> {
  await media.remove(userId, mediaId).catch((error: unknown) => {
    logger.warn({ err: error, mediaId }, 'could not remove an unwanted story render');
  });
}

/** What a render needs besides its row: the deps, and the renders running in this process. */
interface RenderContext {
  deps: StoryRendererDeps;
  leaseMs: number;
  heartbeatMs: number;
  /** Renders running in this process, so a cancel here stops ffmpeg at once (others poll). */
  running: Map<string, AbortController>;
}

/**
 * Runs one claimed render while `signal` (the heartbeat's: cancelled, lease lost) lets it;
 * every write is `owner`'s, so a render whose lease was taken over records nothing.
 */
async function renderClaimed(
  deps: StoryRendererDeps,
  row: StoryRow,
  owner: string,
  signal: AbortSignal,
): Promise<RenderOutcome> {
  const { repository, media, logger } = deps;
  const sources = await media.findMany(
    row.user_id,
    [row.top_media_id, row.bottom_media_id].filter((id): id is string => id !== null),
  );
  const top = sources.find((source) => source.id === row.top_media_id);
  const bottom = sources.find((source) => source.id === row.bottom_media_id);
  if (!top || !bottom) {
    await repository.fail(row.id, owner, 'stories.failures.sourceMissing');
    return 'failed';
  }
  // No render the user has no room to keep (the stored file's real size is checked again).
  await media.assertRoomFor(row.user_id, expectedRenderBytes(storyDurationSeconds(top.probe)));
  const workDir = await makeWorkDir('story-');
  try {
    const outputPath = path.join(workDir, 'story.mp4');
    // Progress writes are awaited before completing: a late one must not follow the result.
    const progress = createProgressWriter({
      write: (fraction) => repository.setProgress(row.id, owner, fraction),
      onError: (error) => logger.warn({ err: error, storyId: row.id }, 'progress write failed'),
    });
    await media.withLocalFile(top, (topPath) =>
      media.withLocalFile(bottom, (bottomPath) =>
        renderStory({
          ffmpegPath: deps.ffmpegPath,
          top: { path: topPath, probe: top.probe },
          bottom: { path: bottomPath, probe: bottom.probe },
          outputPath,
          mixBottomAudio: row.mix_bottom_audio,
          signal,
          onProgress: progress.onProgress,
        }),
      ),
    );
    await progress.settled();
    if (signal.aborted) return 'cancelled';
    const result = await media.createFromFile(row.user_id, {
      localPath: outputPath,
      kind: 'story',
      originalName: storyFileName(top.original_name),
    });
    if (!(await repository.complete(row.id, owner, result.id))) {
      await discardRender(media, logger, row.user_id, result.id);
      return 'cancelled';
    }
    await deps.notify?.({
      userId: row.user_id,
      type: 'story_ready',
      dedupeKey: `story_ready:${row.id}`,
      data: { storyId: row.id },
    });
    return 'completed';
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

/** A render that threw: stopped (cancel, lease lost) or failed, with the reason recorded. */
async function settleFailure(
  { repository, logger }: StoryRendererDeps,
  storyId: string,
  owner: string,
  signal: AbortSignal,
  error: unknown,
): Promise<RenderOutcome> {
  if (signal.aborted) {
    logger.info({ storyId, reason: String(signal.reason) }, 'story render stopped');
    return 'cancelled';
  }
  if (error instanceof QuotaExceededError) {
    logger.info({ storyId, usedBytes: error.usedBytes }, 'story render refused: quota full');
  } else {
    logger.error({ err: error, storyId }, 'story render failed');
  }
  await repository.fail(storyId, owner, failReasonFor(error));
  return 'failed';
}

/** Queues again a render whose lease went unconfirmed, if it was still `owner`'s. */
async function handBack(
  { repository, enqueue, logger }: StoryRendererDeps,
  storyId: string,
  owner: string,
): Promise<void> {
  try {
    if (await repository.handBack(storyId, owner)) {
      logger.warn({ storyId }, 'lease not renewed in time: story render handed back');
      await enqueue(storyId);
    }
  } catch (error) {
    logger.warn({ err: error, storyId }, 'could not hand back a story render after a slow lease');
  }
}

/** Claims the story and renders it under a lease its heartbeat renews (createStoryRenderer's render). */
async function renderUnderLease(
  context: RenderContext,
  storyId: string,
  jobSignal: AbortSignal | undefined,
): Promise<RenderOutcome> {
  const { deps, leaseMs, heartbeatMs, running } = context;
  const { repository, logger } = deps;
  const lease = newLease(leaseMs);
  const row = await repository.claim(storyId, lease);
  if (!row) return 'skipped';
  // Every earlier render since the last one that finished died with its process: rendering
  // again would take the worker down again. The claim counted this run too.
  if (row.unfinished_runs > MAX_JOB_ATTEMPTS) {
    logger.error(
      { storyId, unfinishedRuns: row.unfinished_runs - 1 },
      'story render crashed its worker too often: failed, not run again',
    );
    await repository.fail(storyId, lease.owner, 'stories.failures.crashed');
    return 'failed';
  }
  // A cancel in this process stops ffmpeg at once; elsewhere, the next renewal notices.
  const controller = new AbortController();
  running.set(storyId, controller);
  const heartbeat = startHeartbeat({
    intervalMs: heartbeatMs,
    renew: () => repository.renewLease(storyId, lease),
    lostAfterMs: leaseMs,
    since: lease.claimedAt,
    // An abandoned job (see jobs/queue.ts) stops ffmpeg and lets its lease lapse, like a cancel.
    signal: jobSignal ? AbortSignal.any([controller.signal, jobSignal]) : controller.signal,
    onError: (error) => logger.warn({ err: error, storyId }, 'story lease renewal failed'),
  });
  let outcome: RenderOutcome;
  try {
    outcome = await renderClaimed(deps, row, lease.owner, heartbeat.signal);
    logger.info({ storyId, outcome }, 'story render finished');
  } catch (error) {
    outcome = await settleFailure(deps, storyId, lease.owner, heartbeat.signal, error);
  } finally {
    await heartbeat.stop();
    if (running.get(storyId) === controller) running.delete(storyId);
  }
  // Stopped by renewals that never landed, the render may still be ours: handed back now
  // (no renewal is in flight any more), rather than left 'rendering' until a restart.
  if (outcome === 'cancelled' && leaseLoss(heartbeat.signal) === 'unconfirmed') {
    await handBack(deps, storyId, lease.owner);
  }
  return outcome;
}

/** The worker's story renders ('stories.render'): each under a lease renewed by a heartbeat. */
export function createStoryRenderer(deps: StoryRendererDeps) {
  const { repository, enqueue } = deps;
  const { ms: leaseMs, heartbeatMs } = deps.lease ?? MEDIA_JOB_LEASE;
  const context: RenderContext = { deps, leaseMs, heartbeatMs, running: new Map() };

  return {
    /**
     * The worker's job: claims the story, renders it with live progress, registers the result as
     * media. Never throws for a render that failed (ffmpeg's failures are deterministic: a retry
     * would fail again); the row carries the reason instead.
     */
    render: (storyId: string, jobSignal?: AbortSignal): Promise<RenderOutcome> =>
      renderUnderLease(context, storyId, jobSignal),

    /** Stops the story's render if it runs in this process (cancelled, deleted). */
    stop(storyId: string, why: string): void {
      context.running.get(storyId)?.abort(new StoryCancelledError(why));
    },

    /** The render's job failed MAX_JOB_ATTEMPTS times: the row says so, if still active. */
    async giveUp(storyId: string): Promise<void> {
      await repository.failUnleased(storyId, 'stories.failures.crashed');
    },

    /** At worker start: queue again what a stopped process left queued or half-rendered. */
    async recoverInterrupted(): Promise<number> {
      const rows = await repository.findInterrupted();
      for (const row of rows) {
        const delaySeconds = recoveryDelaySeconds(row.status, leaseMs);
        await enqueue(row.id, delaySeconds === undefined ? {} : { delaySeconds });
      }
      return rows.length;
    },
  };
}

export type StoryRenderer = ReturnType<typeof createStoryRenderer>;
