/**
 * How the publisher should react to a failed TikTok call:
 * - `auth`: the access token is dead — refresh it (or reconnect the account), then retry;
 * - `rate_limit`: wait, then retry;
 * - `transient`: TikTok or the network hiccuped — retry with backoff;
 * - `cannot_post_now`: the creator may not post at the moment (daily cap, spam risk) — retry much later;
 * - `permanent`: retrying the same request will fail again.
 */
export type TikTokErrorKind = 'auth' | 'rate_limit' | 'transient' | 'permanent' | 'cannot_post_now';

/** Codes the client produces itself when TikTok's answer never arrived or made no sense. */
export type TikTokLocalErrorCode = 'network_error' | 'timeout' | 'invalid_response';

const TRANSIENT_CODES = new Set([
  'network_error',
  'timeout',
  'internal_error',
  'server_error',
  'temporarily_unavailable',
]);

/** Maps TikTok's error code and HTTP status to what a retry policy needs to know. */
export function classifyTikTokError(code: string, httpStatus: number | null): TikTokErrorKind {
  if (code === 'access_token_invalid') return 'auth';
  if (code === 'rate_limit_exceeded' || httpStatus === 429) return 'rate_limit';
  if (TRANSIENT_CODES.has(code)) return 'transient';
  if (code.startsWith('spam_risk_') || code === 'reached_active_user_cap') return 'cannot_post_now';
  if (httpStatus !== null && httpStatus >= 500) return 'transient';
  return 'permanent';
}

export interface TikTokApiErrorInit {
  /** Which client method failed, e.g. 'video_init' (never includes tokens). */
  operation: string;
  code: string;
  httpStatus: number | null;
  logId?: string | null;
  description?: string;
  cause?: unknown;
}

/** The one error every TikTok client method throws (except when the caller aborts). */
export class TikTokApiError extends Error {
  override name = 'TikTokApiError';
  readonly operation: string;
  /** TikTok's error code (`access_token_invalid`, `invalid_grant`…) or a TikTokLocalErrorCode. */
  readonly code: string;
  /** null when no HTTP answer arrived. */
  readonly httpStatus: number | null;
  /** TikTok's log_id: quote it when asking TikTok support about a failure. */
  readonly logId: string | null;
  readonly description: string;
  readonly kind: TikTokErrorKind;

  constructor(init: TikTokApiErrorInit) {
    const description = init.description ?? '';
    const status = init.httpStatus === null ? 'no response' : `HTTP ${init.httpStatus}`;
    super(
      `TikTok ${init.operation} failed: ${init.code} (${status})${description === '' ? '' : `: ${description}`}`,
      { cause: init.cause },
    );
    this.operation = init.operation;
    this.code = init.code;
    this.httpStatus = init.httpStatus;
    this.logId = init.logId ?? null;
    this.description = description;
    this.kind = classifyTikTokError(init.code, init.httpStatus);
  }
}
