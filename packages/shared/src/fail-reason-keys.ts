import { isPublishFailReason, type PublishFailReason } from './publish-fail-reasons.ts';
import type { TranslationKey } from './translation-key.ts';

// Every reason the publisher can record (the shared list), in the user's words; several share a
// sentence. A reason outside the list (a row older than the list) falls back to a generic one
// rather than showing a code.
const failReasonKeys: Record<PublishFailReason, TranslationKey> = {
  init_outcome_unknown: 'scheduler.failReasons.init_outcome_unknown',
  account_reconnect_needed: 'scheduler.failReasons.reconnect_needed',
  access_token_invalid: 'scheduler.failReasons.reconnect_needed',
  auth_removed: 'scheduler.failReasons.auth_removed',
  scope_not_authorized: 'scheduler.failReasons.scope_missing',
  scope_permission_missed: 'scheduler.failReasons.scope_missing',
  video_too_long: 'scheduler.failReasons.video_too_long',
  media_missing: 'scheduler.failReasons.media_missing',
  account_deleted: 'scheduler.failReasons.account_deleted',
  upload_url_expired: 'scheduler.failReasons.upload_url_expired',
  upload_not_found: 'scheduler.failReasons.upload_not_found',
  upload_offset_mismatch: 'scheduler.failReasons.upload_offset_mismatch',
  upload_state_missing: 'scheduler.failReasons.upload_state_missing',
  upload_rejected: 'scheduler.failReasons.upload_rejected',
  status_timeout: 'scheduler.failReasons.status_timeout',
  publish_failed: 'scheduler.failReasons.publish_failed',
  publisher_error: 'scheduler.failReasons.publisher_error',
  publisher_crashed: 'scheduler.failReasons.publisher_crashed',
  tiktok_error: 'scheduler.failReasons.tiktok_error',
  network_error: 'scheduler.failReasons.tiktok_unreachable',
  timeout: 'scheduler.failReasons.tiktok_unreachable',
  temporarily_unavailable: 'scheduler.failReasons.tiktok_unreachable',
  invalid_response: 'scheduler.failReasons.invalid_response',
  internal: 'scheduler.failReasons.internal',
  internal_error: 'scheduler.failReasons.internal',
  server_error: 'scheduler.failReasons.internal',
  invalid_param: 'scheduler.failReasons.invalid_params',
  invalid_params: 'scheduler.failReasons.invalid_params',
  url_ownership_unverified: 'scheduler.failReasons.url_ownership_unverified',
  rate_limit_exceeded: 'scheduler.failReasons.rate_limit_exceeded',
  spam_risk_too_many_posts: 'scheduler.failReasons.spam_risk_too_many_posts',
  spam_risk_user_banned_from_posting: 'scheduler.failReasons.spam_risk_user_banned_from_posting',
  spam_risk_too_many_pending_share: 'scheduler.failReasons.spam_risk_too_many_pending_share',
  video_pull_failed: 'scheduler.failReasons.video_pull_failed',
  spam_risk: 'scheduler.failReasons.spam_risk',
  reached_active_user_cap: 'scheduler.failReasons.reached_active_user_cap',
  unaudited_client_can_only_post_to_private_accounts:
    'scheduler.failReasons.unaudited_client_can_only_post_to_private_accounts',
  privacy_level_option_mismatch: 'scheduler.failReasons.privacy_level_option_mismatch',
  file_format_check_failed: 'scheduler.failReasons.file_format_check_failed',
  duration_check_failed: 'scheduler.failReasons.duration_check_failed',
  frame_rate_check_failed: 'scheduler.failReasons.frame_rate_check_failed',
  picture_size_check_failed: 'scheduler.failReasons.picture_size_check_failed',
  publish_cancelled: 'scheduler.failReasons.publish_cancelled',
};

/** The translation key explaining why a post failed (or why an account cannot post now). */
export function failReasonKey(reason: string | null): TranslationKey {
  if (reason === null) return 'scheduler.failReasons.unknown';
  if (isPublishFailReason(reason)) return failReasonKeys[reason];
  // TikTok may add spam_risk_* variants; they all mean "TikTok limits this account for now".
  return reason.startsWith('spam_risk')
    ? 'scheduler.failReasons.spam_risk'
    : 'scheduler.failReasons.unknown';
}
