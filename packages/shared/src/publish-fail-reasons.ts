/**
 * Every reason a post can fail with (`posts.fail_reason`, `Post.failReason`): the publisher writes
 * nothing else, and the web has a sentence for each one in both languages (a test checks both).
 * TikTok's documented codes keep TikTok's names (tiktok-api.md); a code TikTok does not document
 * is recorded as 'tiktok_error' and spelled out in the worker's log.
 */
export const publishFailReasons = [
  // Decided by Cadence.
  /** video/init may or may not have created the post: publishing again could post twice. */
  'init_outcome_unknown',
  /** The account's tokens are refused even after a refresh. */
  'account_reconnect_needed',
  /** Longer than the creator's max_video_post_duration_sec. */
  'video_too_long',
  /** The stored video file is gone. */
  'media_missing',
  /** The post's TikTok account was removed from Cadence before the post went out. */
  'account_deleted',
  /** TikTok's upload_url expired (1 hour) before the last chunk (HTTP 403). */
  'upload_url_expired',
  /** TikTok no longer knows the upload (HTTP 404). */
  'upload_not_found',
  /** TikTok's byte offset matches none of our chunks, even after asking it (HTTP 416). */
  'upload_offset_mismatch',
  /** The post's upload progress was lost from its row. */
  'upload_state_missing',
  /** TikTok refused a chunk in another way, with no documented code. */
  'upload_rejected',
  /** TikTok still processing after MAX_POLLS status fetches (about an hour). */
  'status_timeout',
  /** TikTok's status said FAILED without a fail_reason. */
  'publish_failed',
  /** Our own failure (storage read, database…), still there after every retry. */
  'publisher_error',
  /** An unexpected error stopped the publisher on this post several times in a row (a poison post). */
  'publisher_crashed',
  /** A TikTok error code TikTok does not document. */
  'tiktok_error',
  // Our TikTok client's codes for an answer that never came or made no sense, after every retry.
  'network_error',
  'timeout',
  'invalid_response',
  // TikTok's error codes (tiktok-api.md §2–§4) that reach a post. The OAuth refresh errors other
  // than these two become 'account_reconnect_needed'.
  'server_error',
  'temporarily_unavailable',
  'access_token_invalid',
  'scope_not_authorized',
  'scope_permission_missed',
  'invalid_param',
  'invalid_params',
  'rate_limit_exceeded',
  'internal_error',
  'spam_risk_too_many_posts',
  'spam_risk_user_banned_from_posting',
  'spam_risk_too_many_pending_share',
  'reached_active_user_cap',
  'unaudited_client_can_only_post_to_private_accounts',
  'privacy_level_option_mismatch',
  'url_ownership_unverified',
  // TikTok's status/fetch fail_reason values (tiktok-api.md §4).
  'file_format_check_failed',
  'duration_check_failed',
  'frame_rate_check_failed',
  'picture_size_check_failed',
  'internal',
  'publish_cancelled',
  'auth_removed',
  /** PULL_FROM_URL: TikTok could not download the video (our signed link expired or failed). */
  'video_pull_failed',
  /** Any other spam_risk_* TikTok may add: the account is limited for now. */
  'spam_risk',
] as const;
export type PublishFailReason = (typeof publishFailReasons)[number];

export function isPublishFailReason(value: string): value is PublishFailReason {
  return (publishFailReasons as readonly string[]).includes(value);
}

/**
 * What a creator can do about a failed post, by its reason:
 * - `retry`: publishing the same post again may work (the default);
 * - `reconnect`: reconnect the TikTok account first, then retry;
 * - `wait`: TikTok holds the account back; a retry only works once TikTok lifts it;
 * - `schedule_again`: this post cannot work as it is (its file is gone, TikTok refused the file,
 *   or a setting TikTok no longer offers): it takes another video or other settings, so the post
 *   itself can be neither retried nor rescheduled.
 * The web shows the actions from this and the server refuses what it rules out.
 */
export type FailRemedy = 'retry' | 'reconnect' | 'wait' | 'schedule_again';

const failRemedies: Partial<Record<PublishFailReason, FailRemedy>> = {
  account_reconnect_needed: 'reconnect',
  access_token_invalid: 'reconnect',
  auth_removed: 'reconnect',
  scope_not_authorized: 'reconnect',
  scope_permission_missed: 'reconnect',
  spam_risk_user_banned_from_posting: 'wait',
  media_missing: 'schedule_again',
  video_too_long: 'schedule_again',
  file_format_check_failed: 'schedule_again',
  duration_check_failed: 'schedule_again',
  frame_rate_check_failed: 'schedule_again',
  picture_size_check_failed: 'schedule_again',
  privacy_level_option_mismatch: 'schedule_again',
};

/** What can be done about a post that failed with `reason` (see FailRemedy). */
export function failRemedy(reason: string | null): FailRemedy {
  return reason !== null && isPublishFailReason(reason)
    ? (failRemedies[reason] ?? 'retry')
    : 'retry';
}
