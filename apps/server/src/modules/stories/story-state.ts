// The story render's decisions as pure functions: what a failure tells the user, what the result
// is called, when a recovered row renders again. renderer.ts does the I/O.
import type { StoryFailReason, StoryStatus } from '@cadence/shared/schemas/story';
import { FfmpegError } from '../../media/ffmpeg.ts';
import { QuotaExceededError } from '../media/service.ts';

/** 'cancelled': stopped with nothing recorded (cancelled, deleted, or its lease taken over). */
export type RenderOutcome = 'completed' | 'failed' | 'cancelled' | 'skipped';

/** A render stopped by its owner (cancelled, deleted) in this process. */
export class StoryCancelledError extends Error {
  override name = 'StoryCancelledError';
}

/** The translation key the user sees for a failed render; internals stay in the log. */
export function failReasonFor(error: unknown): StoryFailReason {
  if (error instanceof QuotaExceededError) return 'stories.failures.quotaFull';
  if (error instanceof FfmpegError) return 'stories.failures.renderFailed';
  return 'stories.failures.internal';
}

/** The rendered file's name, from the top video's. */
export function storyFileName(topOriginalName: string): string {
  const base = topOriginalName.replace(/\.[^.]+$/, '').trim() || 'video';
  return `story-${base}.mp4`;
}

/**
 * When a worker start queues again a story a stopped process left unfinished: a queued one at
 * once, a 'rendering' one once its lease can have run out (if another worker is in fact still
 * rendering it, the claim then finds the lease renewed and the job does nothing).
 */
export function recoveryDelaySeconds(status: StoryStatus, leaseMs: number): number | undefined {
  return status === 'rendering' ? Math.ceil(leaseMs / 1000) + 5 : undefined;
}
