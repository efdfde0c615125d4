// The publisher's decisions as pure functions: what to do next with a post, and how to react to
// an error. publisher.ts does the I/O; these are unit-tested on their own.
import type { PublishFailReason } from '@cadence/shared/publish-fail-reasons';
import { retryDelayMs } from '../../platforms/backoff.ts';
import type {
  ChunkRange,
  ErrorReaction,
  PlatformDriver,
  PublishPhase,
} from '../../platforms/driver.ts';
import { StorageError } from '../../storage/media-storage.ts';
import { AccountDeletedError, AccountNeedsReconnectError } from '../accounts/token-service.ts';

/** Give up after this many attempts at the same post (each transient failure is one). */
export const MAX_ATTEMPTS = 6;
/** Status polls before we stop waiting for the platform (≈ an hour at the 30 s ceiling). */
export const MAX_POLLS = 130;

/**
 * The failReason shown when video/init may or may not have created a post (timeout, connection
 * lost after sending, or a crash in between). Publishing again could post twice, so the user checks.
 */
export const INIT_OUTCOME_UNKNOWN = 'init_outcome_unknown' satisfies PublishFailReason;

export type PublishStep = 'init' | 'upload' | 'poll' | 'init_outcome_unknown';

export interface PublishProgress {
  publish_id: string | null;
  init_started_at: Date | null;
  uploaded_bytes: number;
  video_size: number | null;
}

/** Where a post taken by a worker stands; the row alone decides, so a restart resumes correctly. */
export function nextStep(post: PublishProgress): PublishStep {
  if (post.publish_id === null) {
    return post.init_started_at === null ? 'init' : 'init_outcome_unknown';
  }
  if (post.video_size === null || post.uploaded_bytes < post.video_size) return 'upload';
  return 'poll';
}

/** 1 s, 2 s, 4 s … capped at 30 s: TikTok allows 30 status fetches per minute per token. */
export function pollDelayMs(pollCount: number): number {
  return Math.min(30_000, 1_000 * 2 ** Math.max(0, pollCount));
}

/** How long Cadence keeps asking for a published post's public id (TikTok's moderation). */
export const POST_ID_WAIT_MS = 72 * 60 * 60 * 1000;

/**
 * Before the check that follows `checks` earlier ones for a post's public id: 1, 2, 4 … minutes,
 * capped at one hour: about 75 status fetches over 72 h. Moderation "usually finishes within one
 * minute"; starting at a minute keeps a batch of posts published together (10 awaiting ids on one
 * account: 10 fetches a minute at first) well inside TikTok's 30 status fetches per minute per
 * token, which the posts still processing share.
 */
export function postIdCheckDelayMs(checks: number, firstCheckMs = POST_ID_FIRST_CHECK_MS): number {
  return Math.min(3_600_000, firstCheckMs * 2 ** Math.max(0, checks));
}

/** The first check for a published post's public id, a minute after publishing (see above). */
export const POST_ID_FIRST_CHECK_MS = 60_000;

/**
 * The first id check against Cadence's own sandbox, whose moderation delay is configured
 * (TIKTOK_SANDBOX_POST_ID_DELAY_MS, default 5 minutes): a second after that delay when it is
 * shorter than a minute, so a demo's link to the sandbox's video page follows within seconds.
 * The checks after it double as usual.
 */
export function sandboxFirstPostIdCheckMs(moderationDelayMs: number): number {
  return Math.min(POST_ID_FIRST_CHECK_MS, moderationDelayMs + 1_000);
}

/**
 * How to react to an error in a phase: the account's and storage's errors here, the platform's by
 * its driver (`reactToPlatformError`), anything else as the publisher's own failure, retried.
 */
export function reactToError(
  error: unknown,
  phase: PublishPhase,
  attempt: number,
  reactToPlatformError: PlatformDriver['reactToError'],
): ErrorReaction {
  // Deleted while the post was being published: its tokens were revoked with it.
  if (error instanceof AccountDeletedError) return { action: 'fail', reason: 'account_deleted' };
  if (error instanceof AccountNeedsReconnectError) {
    return { action: 'fail', reason: 'account_reconnect_needed' };
  }
  // The stored video is gone: no retry brings it back.
  if (error instanceof StorageError && error.code === 'not_found') {
    return { action: 'fail', reason: 'media_missing' };
  }
  // Our own failure (storage, database…), not the platform's: retried, then named as ours.
  return (
    reactToPlatformError(error, phase, attempt) ?? {
      action: 'retry',
      reason: 'publisher_error',
      delayMs: retryDelayMs(attempt),
    }
  );
}

/**
 * Index of the chunk to send next when the platform already holds `uploadedBytes`; -1 when that
 * offset is not a chunk boundary (the upload cannot be resumed consistently).
 */
export function resumeChunkIndex(chunks: readonly ChunkRange[], uploadedBytes: number): number {
  if (uploadedBytes === 0) return 0;
  const index = chunks.findIndex((chunk) => chunk.first === uploadedBytes);
  if (index >= 0) return index;
  const total = chunks.at(-1)?.last;
  return total !== undefined && uploadedBytes === total + 1 ? chunks.length : -1;
}
