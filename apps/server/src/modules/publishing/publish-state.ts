// The publisher's decisions as pure functions: what to do next with a post, and how to react to
// an error. publisher.ts does the I/O; these are unit-tested on their own.
import { isPublishFailReason, type PublishFailReason } from '@cadence/shared/publish-fail-reasons';
import type { ChunkRange } from '@cadence/shared/tiktok-chunks';
import { StorageError } from '../../storage/media-storage.ts';
import { TikTokApiError } from '../../tiktok/tiktok-error.ts';
import { AccountDeletedError, AccountNeedsReconnectError } from '../accounts/token-service.ts';

/** Give up after this many attempts at the same post (each transient failure is one). */
export const MAX_ATTEMPTS = 6;
/** Status polls before we stop waiting for TikTok (≈ an hour at the 30 s ceiling). */
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

export type ErrorReaction =
  | { action: 'retry'; reason: PublishFailReason; delayMs: number }
  | { action: 'fail'; reason: PublishFailReason }
  | { action: 'outcome_unknown' }
  /** TikTok's daily cap: not a failure, the post waits for the account's next day with room. */
  | { action: 'postpone'; reason: PublishFailReason };

/** TikTok's answer when the creator reached today's posting limit (creator_info or video init). */
export const DAILY_CAP_CODE = 'spam_risk_too_many_posts';

export type PublishPhase = 'prepare' | 'init' | 'upload' | 'poll';

/** Node's codes for a connection that never opened: the request cannot have reached TikTok. */
const NEVER_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
]);

function causeCodes(error: unknown): string[] {
  const codes: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    if ('code' in current && typeof current.code === 'string') codes.push(current.code);
    current = 'cause' in current ? current.cause : undefined;
  }
  return codes;
}

/** True when a failed call provably never reached TikTok (so nothing can have been created). */
export function neverReachedTikTok(error: TikTokApiError): boolean {
  if (error.httpStatus !== null || error.code !== 'network_error') return false;
  return causeCodes(error.cause).some((code) => NEVER_SENT_CODES.has(code));
}

/**
 * The post's fail reason for a TikTok error code or status fail_reason: TikTok's documented codes
 * as they are, the upload's bare HTTP statuses in words, anything else 'tiktok_error' (the caller
 * logs the code itself).
 */
export function failReasonFromTikTok(code: string): PublishFailReason {
  if (isPublishFailReason(code)) return code;
  // TikTok may add spam_risk_* variants; they all mean "TikTok limits this account for now".
  if (code.startsWith('spam_risk')) return 'spam_risk';
  // Chunk PUTs often answer with a bare status (TikTokClient.uploadChunk names them upload_http_*).
  switch (code) {
    case 'upload_http_403':
      return 'upload_url_expired';
    case 'upload_http_404':
      return 'upload_not_found';
    case 'upload_http_416':
      return 'upload_offset_mismatch';
  }
  return code.startsWith('upload_http_') ? 'upload_rejected' : 'tiktok_error';
}

/** 5 s, 10 s, 20 s … capped at 5 minutes. */
export function retryDelayMs(attempt: number): number {
  return Math.min(300_000, 5_000 * 2 ** Math.max(0, attempt - 1));
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
 * How to react to an error in a phase. Key rule: after video/init may have been received, never
 * init again — a timeout or dropped connection there is 'outcome_unknown', not a retry.
 */
export function reactToError(error: unknown, phase: PublishPhase, attempt: number): ErrorReaction {
  // Deleted while the post was being published: its tokens were revoked with it.
  if (error instanceof AccountDeletedError) return { action: 'fail', reason: 'account_deleted' };
  if (error instanceof AccountNeedsReconnectError) {
    return { action: 'fail', reason: 'account_reconnect_needed' };
  }
  // The stored video is gone: no retry brings it back.
  if (error instanceof StorageError && error.code === 'not_found') {
    return { action: 'fail', reason: 'media_missing' };
  }
  // Our own failure (storage, database…), not TikTok's: retried, then named as ours.
  if (!(error instanceof TikTokApiError)) {
    return { action: 'retry', reason: 'publisher_error', delayMs: retryDelayMs(attempt) };
  }
  const reason = failReasonFromTikTok(error.code);
  // A definite refusal before anything was created at TikTok (creator_info, or init's 403).
  if (error.code === DAILY_CAP_CODE && (phase === 'prepare' || phase === 'init')) {
    return { action: 'postpone', reason };
  }
  if (phase === 'init' && (error.code === 'timeout' || error.code === 'network_error')) {
    if (!neverReachedTikTok(error)) return { action: 'outcome_unknown' };
  }
  if (phase === 'upload') {
    // The upload URL lives an hour; past it TikTok answers 403 and the post cannot be finished.
    if (error.httpStatus === 403) return { action: 'fail', reason: 'upload_url_expired' };
    if (error.httpStatus === 404) return { action: 'fail', reason: 'upload_not_found' };
    // Out of step with TikTok's offset: the next attempt asks TikTok where it stands.
    if (error.httpStatus === 416 || error.httpStatus === 400) {
      return { action: 'retry', reason, delayMs: 1_000 };
    }
  }
  switch (error.kind) {
    case 'rate_limit':
      // The per-token windows are one minute long.
      return { action: 'retry', reason, delayMs: phase === 'poll' ? 10_000 : 30_000 };
    case 'transient':
      return { action: 'retry', reason, delayMs: retryDelayMs(attempt) };
    case 'auth':
      // withAccessToken already refreshed once and the new token was refused too.
      return { action: 'fail', reason: 'account_reconnect_needed' };
    case 'cannot_post_now':
    case 'permanent':
      return { action: 'fail', reason };
  }
}

/**
 * Index of the chunk to send next when TikTok already holds `uploadedBytes`; -1 when that
 * offset is not a chunk boundary (the upload cannot be resumed consistently).
 */
export function resumeChunkIndex(chunks: readonly ChunkRange[], uploadedBytes: number): number {
  if (uploadedBytes === 0) return 0;
  const index = chunks.findIndex((chunk) => chunk.first === uploadedBytes);
  if (index >= 0) return index;
  const total = chunks.at(-1)?.last;
  return total !== undefined && uploadedBytes === total + 1 ? chunks.length : -1;
}
