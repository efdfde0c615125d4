import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { Media } from '@cadence/shared/schemas/media';
import {
  MAX_ACTIVE_STORIES_PER_USER,
  type CreateStoriesInput,
  type Story,
  type StoryFailReason,
} from '@cadence/shared/schemas/story';
import type { TranslationKey } from '@cadence/shared/translation-key';
import type { Logger } from 'pino';
import { MAX_JOB_ATTEMPTS } from '../../jobs/queue.ts';
import { AppError } from '../../lib/app-error.ts';
import { newLease } from '../../db/lease.ts';
import { leaseLoss, startHeartbeat } from '../../lib/heartbeat.ts';
import { createProgressWriter } from '../../lib/progress-writer.ts';
import { FfmpegError } from '../../media/ffmpeg.ts';
import type { MediaRow } from '../media/repository.ts';
import { expectedRenderBytes, QuotaExceededError, type MediaService } from '../media/service.ts';
import type { UserRepository } from '../users/repository.ts';
import { makeWorkDir } from '../../lib/work-dir.ts';
import { pairStories } from './render/pair-stories.ts';
import { renderStory } from './render/render-story.ts';
import { storyDurationSeconds } from './render/story-render-args.ts';
import type { StoryRepository, StoryRow } from './repository.ts';
import type { Notify } from '../notifications/service.ts';

/** How often a render renews its lease, which also tells it of a cancel from any process. */
export const HEARTBEAT_MS = 500;
/**
 * A render's lease: a 'rendering' story whose lease ran out (its worker stopped renewing it:
 * dead) is rendered again, by whichever worker claims it first.
 */
export const LEASE_MS = 60_000;

/** 'cancelled': stopped with nothing recorded (cancelled, deleted, or its lease taken over). */
export type RenderOutcome = 'completed' | 'failed' | 'cancelled' | 'skipped';

export interface StoryServiceDeps {
  repository: StoryRepository;
  media: MediaService;
  users: Pick<UserRepository, 'isPro'>;
  /** Queues the render job (pg-boss 'stories.render'), optionally to start after a delay. */
  enqueue: (storyId: string, options?: { delaySeconds?: number }) => Promise<void>;
  ffmpegPath: string;
  logger: Logger;
  /** Tells the owner its story is ready (bell, email). */
  notify?: Notify;
  /** Active stories allowed per user (default MAX_ACTIVE_STORIES_PER_USER). */
  maxActivePerUser?: number;
  /** The render's lease and how often it is renewed (defaults LEASE_MS, HEARTBEAT_MS). */
  lease?: { ms: number; heartbeatMs: number };
}

class StoryCancelledError extends Error {
  override name = 'StoryCancelledError';
}

function storyFileName(top: MediaRow): string {
  const base = top.original_name.replace(/\.[^.]+$/, '').trim() || 'video';
  return `story-${base}.mp4`;
}

/** Split-screen stories (Pro): requests, listing, cancel, and the render the worker runs. */
export function createStoryService(deps: StoryServiceDeps) {
  const { repository, media, users, enqueue, ffmpegPath, logger } = deps;
  const maxActive = deps.maxActivePerUser ?? MAX_ACTIVE_STORIES_PER_USER;
  const { ms: leaseMs, heartbeatMs } = deps.lease ?? { ms: LEASE_MS, heartbeatMs: HEARTBEAT_MS };
  /** Renders running in this process, so a cancel here stops ffmpeg at once (others poll). */
  const running = new Map<string, AbortController>();

  async function assertPro(userId: string): Promise<void> {
    if (!(await users.isPro(userId))) {
      throw new AppError('pro_required', 'Stories are a Pro feature');
    }
  }

  async function toStories(userId: string, rows: StoryRow[]): Promise<Story[]> {
    const resultIds = rows.flatMap((row) => (row.result_media_id ? [row.result_media_id] : []));
    const results = new Map<string, Media>(
      (await media.findMany(userId, resultIds)).map((row) => [row.id, media.toMedia(row)]),
    );
    return rows.map((row) => ({
      id: row.id,
      status: row.status,
      progress: row.progress,
      topMediaId: row.top_media_id,
      bottomMediaId: row.bottom_media_id,
      mixBottomAudio: row.mix_bottom_audio,
      resultMedia: (row.result_media_id && results.get(row.result_media_id)) || null,
      failReason: row.fail_reason,
      createdAt: row.created_at.toISOString(),
    }));
  }

  async function requireStory(userId: string, id: string): Promise<StoryRow> {
    const row = await repository.findForUser(userId, id);
    if (!row) throw new AppError('not_found', 'No such story');
    return row;
  }

  /** The result of a render nobody wants any more (cancelled or deleted meanwhile). */
  async function discardResult(userId: string, mediaId: string): Promise<void> {
    await media.remove(userId, mediaId).catch((error: unknown) => {
      logger.warn({ err: error, mediaId }, 'could not remove an unwanted story render');
    });
  }

  /**
   * Runs one claimed render while `signal` (the heartbeat's: cancelled, lease lost) lets it;
   * every write is `owner`'s, so a render whose lease was taken over records nothing.
   */
  async function renderClaimed(
    row: StoryRow,
    owner: string,
    signal: AbortSignal,
  ): Promise<RenderOutcome> {
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
            ffmpegPath,
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
        originalName: storyFileName(top),
      });
      if (!(await repository.complete(row.id, owner, result.id))) {
        await discardResult(row.user_id, result.id);
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
    storyId: string,
    owner: string,
    signal: AbortSignal,
    error: unknown,
  ): Promise<RenderOutcome> {
    if (signal.aborted) {
      logger.info({ storyId, reason: String(signal.reason) }, 'story render stopped');
      return 'cancelled';
    }
    const reason: StoryFailReason =
      error instanceof QuotaExceededError
        ? 'stories.failures.quotaFull'
        : error instanceof FfmpegError
          ? 'stories.failures.renderFailed'
          : 'stories.failures.internal';
    if (error instanceof QuotaExceededError) {
      logger.info({ storyId, usedBytes: error.usedBytes }, 'story render refused: quota full');
    } else {
      logger.error({ err: error, storyId }, 'story render failed');
    }
    await repository.fail(storyId, owner, reason);
    return 'failed';
  }

  /** Queues again a render whose lease went unconfirmed, if it was still `owner`'s. */
  async function handBack(storyId: string, owner: string): Promise<void> {
    try {
      if (await repository.handBack(storyId, owner)) {
        logger.warn({ storyId }, 'lease not renewed in time: story render handed back');
        await enqueue(storyId);
      }
    } catch (error) {
      logger.warn({ err: error, storyId }, 'could not hand back a story render after a slow lease');
    }
  }

  return {
    assertPro,

    async list(userId: string): Promise<Story[]> {
      await assertPro(userId);
      return toStories(userId, await repository.listForUser(userId));
    },

    /** One story per top video, bottoms in turn; refused whole when any video is not the user's. */
    async create(userId: string, input: Required<CreateStoriesInput>): Promise<Story[]> {
      await assertPro(userId);
      const wanted = [...new Set([...input.topMediaIds, ...input.bottomMediaIds])];
      const owned = new Set((await media.findMany(userId, wanted)).map((row) => row.id));
      const fields: Record<string, TranslationKey> = {};
      if (input.topMediaIds.some((id) => !owned.has(id)))
        fields.topMediaIds = 'errors.invalidVideo';
      if (input.bottomMediaIds.some((id) => !owned.has(id)))
        fields.bottomMediaIds = 'errors.invalidVideo';
      if (Object.keys(fields).length > 0) {
        throw new AppError('validation_failed', 'Unknown video', fields);
      }
      const createdAt = new Date();
      const rows = pairStories(input.topMediaIds, input.bottomMediaIds).map((pair, position) => ({
        id: randomUUID(),
        user_id: userId,
        top_media_id: pair.top,
        bottom_media_id: pair.bottom,
        mix_bottom_audio: input.mixBottomAudio,
        position,
        created_at: createdAt,
      }));
      const inserted = await repository.insertWithinLimit(userId, rows, maxActive);
      if (!inserted) {
        throw new AppError('rate_limited', 'Too many stories rendering', {
          stories: 'stories.errors.tooManyRenders',
        });
      }
      try {
        for (const row of inserted) await enqueue(row.id);
      } catch (error) {
        logger.error({ err: error }, 'could not queue story renders');
        await Promise.all(
          inserted.map((row) => repository.failUnleased(row.id, 'stories.failures.internal')),
        );
        throw new AppError('unavailable', 'Render queue unavailable');
      }
      return toStories(userId, inserted);
    },

    /** A queued story is just cancelled; a rendering one also has its ffmpeg killed. */
    async cancel(userId: string, id: string): Promise<Story> {
      await assertPro(userId);
      const cancelled = await repository.cancel(userId, id);
      if (!cancelled) {
        await requireStory(userId, id);
        throw new AppError('conflict', 'Story is not queued or rendering', {
          stories: 'stories.errors.notCancellable',
        });
      }
      running.get(id)?.abort(new StoryCancelledError('cancelled'));
      const [story] = await toStories(userId, [cancelled]);
      if (!story) throw new Error('unreachable: one row in, one story out');
      return story;
    },

    /** Deletes the story (stopping its render) and its video, unless a scheduled post uses it. */
    async remove(userId: string, id: string): Promise<void> {
      await assertPro(userId);
      const row = await repository.delete(userId, id);
      if (!row) throw new AppError('not_found', 'No such story');
      running.get(id)?.abort(new StoryCancelledError('deleted'));
      if (row.result_media_id) await discardResult(userId, row.result_media_id);
    },

    /**
     * The worker's job: claims the story, renders it with live progress, registers the result as
     * media. Never throws for a render that failed (ffmpeg's failures are deterministic: a retry
     * would fail again); the row carries the reason instead.
     */
    async render(storyId: string, jobSignal?: AbortSignal): Promise<RenderOutcome> {
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
        outcome = await renderClaimed(row, lease.owner, heartbeat.signal);
        logger.info({ storyId, outcome }, 'story render finished');
      } catch (error) {
        outcome = await settleFailure(storyId, lease.owner, heartbeat.signal, error);
      } finally {
        await heartbeat.stop();
        if (running.get(storyId) === controller) running.delete(storyId);
      }
      // Stopped by renewals that never landed, the render may still be ours: handed back now
      // (no renewal is in flight any more), rather than left 'rendering' until a restart.
      if (outcome === 'cancelled' && leaseLoss(heartbeat.signal) === 'unconfirmed') {
        await handBack(storyId, lease.owner);
      }
      return outcome;
    },

    /** The render's job failed MAX_JOB_ATTEMPTS times: the row says so, if still active. */
    async giveUp(storyId: string): Promise<void> {
      await repository.failUnleased(storyId, 'stories.failures.crashed');
    },

    /**
     * At worker start: queue again what a stopped process left queued or half-rendered. A
     * 'rendering' story is retried once its lease can have run out: if another worker is in fact
     * still rendering it, the claim then finds the lease renewed and the job does nothing.
     */
    async recoverInterrupted(): Promise<number> {
      const rows = await repository.findInterrupted();
      for (const row of rows) {
        await enqueue(
          row.id,
          row.status === 'rendering' ? { delaySeconds: Math.ceil(leaseMs / 1000) + 5 } : {},
        );
      }
      return rows.length;
    },
  };
}

export type StoryService = ReturnType<typeof createStoryService>;
