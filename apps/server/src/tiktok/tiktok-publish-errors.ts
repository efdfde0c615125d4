// What a TikTok error means for a post: its fail reason, and whether to retry, postpone or stop
// (the TikTok driver's PlatformDriver.reactToError). Unit-tested in tiktok-publish-errors.test.ts.
import { isPublishFailReason, type PublishFailReason } from '@cadence/shared/publish-fail-reasons';
import { retryDelayMs } from '../platforms/backoff.ts';
import type { ErrorReaction, PublishPhase } from '../platforms/driver.ts';
import { TikTokApiError } from './tiktok-error.ts';

/** TikTok's answer when the creator reached today's posting limit (creator_info or video init). */
export const DAILY_CAP_CODE = 'spam_risk_too_many_posts';

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

/** The upload's own answers: its URL's lifetime, and TikTok's offset. */
function reactToUploadError(
  error: TikTokApiError,
  reason: PublishFailReason,
): ErrorReaction | undefined {
  // The upload URL lives an hour; past it TikTok answers 403 and the post cannot be finished.
  if (error.httpStatus === 403) return { action: 'fail', reason: 'upload_url_expired' };
  if (error.httpStatus === 404) return { action: 'fail', reason: 'upload_not_found' };
  // Out of step with TikTok's offset: the next attempt asks TikTok where it stands.
  if (error.httpStatus === 416 || error.httpStatus === 400) {
    return { action: 'retry', reason, delayMs: 1_000 };
  }
  return undefined;
}

/**
 * How to react to a TikTok error in a phase (undefined: not TikTok's). Key rule: after video/init
 * may have been received, never init again — a timeout or dropped connection there is
 * 'outcome_unknown', not a retry.
 */
export function reactToTikTokError(
  error: unknown,
  phase: PublishPhase,
  attempt: number,
): ErrorReaction | undefined {
  if (!(error instanceof TikTokApiError)) return undefined;
  const reason = failReasonFromTikTok(error.code);
  // A definite refusal before anything was created at TikTok (creator_info, or init's 403).
  if (error.code === DAILY_CAP_CODE && (phase === 'prepare' || phase === 'init')) {
    return { action: 'postpone', reason };
  }
  if (phase === 'init' && (error.code === 'timeout' || error.code === 'network_error')) {
    if (!neverReachedTikTok(error)) return { action: 'outcome_unknown' };
  }
  const onUpload = phase === 'upload' ? reactToUploadError(error, reason) : undefined;
  if (onUpload) return onUpload;
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
