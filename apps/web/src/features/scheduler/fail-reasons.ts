// TikTok's fail_reason values (tiktok-api.md §4) and our own codes, in the user's words.
// Unknown reasons fall back to a generic sentence rather than showing a code.
const failReasonKeys: Record<string, string> = {
  file_format_check_failed: 'scheduler.failReasons.file_format_check_failed',
  duration_check_failed: 'scheduler.failReasons.duration_check_failed',
  frame_rate_check_failed: 'scheduler.failReasons.frame_rate_check_failed',
  picture_size_check_failed: 'scheduler.failReasons.picture_size_check_failed',
  internal: 'scheduler.failReasons.internal',
  publish_cancelled: 'scheduler.failReasons.publish_cancelled',
  auth_removed: 'scheduler.failReasons.auth_removed',
  reconnect_needed: 'scheduler.failReasons.reconnect_needed',
  account_reconnect_needed: 'scheduler.failReasons.reconnect_needed',
  access_token_invalid: 'scheduler.failReasons.reconnect_needed',
  scope_not_authorized: 'scheduler.failReasons.reconnect_needed',
  token_expired: 'scheduler.failReasons.reconnect_needed',
  account_not_connected: 'scheduler.failReasons.reconnect_needed',
  spam_risk_too_many_posts: 'scheduler.failReasons.spam_risk_too_many_posts',
  spam_risk_user_banned_from_posting: 'scheduler.failReasons.spam_risk_user_banned_from_posting',
  spam_risk: 'scheduler.failReasons.spam_risk',
  reached_active_user_cap: 'scheduler.failReasons.reached_active_user_cap',
  privacy_level_option_mismatch: 'scheduler.failReasons.privacy_level_option_mismatch',
  unaudited_client_can_only_post_to_private_accounts:
    'scheduler.failReasons.unaudited_client_can_only_post_to_private_accounts',
  rate_limit_exceeded: 'scheduler.failReasons.rate_limit_exceeded',
  init_outcome_unknown: 'scheduler.failReasons.init_outcome_unknown',
  media_missing: 'scheduler.failReasons.media_missing',
  account_deleted: 'scheduler.failReasons.account_deleted',
};

/** The translation key explaining why a post failed (or why an account cannot post now). */
export function failReasonKey(reason: string | null): string {
  if (reason === null) return 'scheduler.failReasons.unknown';
  const known = failReasonKeys[reason];
  if (known) return known;
  // TikTok may add spam_risk_* variants; they all mean "TikTok limits this account for now".
  return reason.startsWith('spam_risk')
    ? 'scheduler.failReasons.spam_risk'
    : 'scheduler.failReasons.unknown';
}
