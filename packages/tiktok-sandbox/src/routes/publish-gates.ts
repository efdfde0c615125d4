import type { UserFlags } from '../control.ts';
import type { SandboxUser } from '../oauth-store.ts';
import { UNAUDITED_ACTIVE_USER_CAP } from '../options.ts';
import type { SandboxState } from '../sandbox-state.ts';

/** Why a post may not start: TikTok's error code and message. */
export interface PublishGate {
  code: string;
  message: string;
}

/** The privacy levels creator_info offers, and video init accepts, for this creator. */
export function privacyOptions(flags: UserFlags): string[] {
  return flags.privateAccount
    ? ['FOLLOWER_OF_CREATOR', 'MUTUAL_FOLLOW_FRIENDS', 'SELF_ONLY']
    : ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'SELF_ONLY'];
}

/** Why this creator cannot start a post right now, or null. */
export function cannotPostNow(
  state: SandboxState,
  user: SandboxUser,
  kind: 'direct' | 'inbox',
): PublishGate | null {
  const flags = state.control.flagsOf(user.username);
  if (flags.cannotPost !== null) {
    return { code: flags.cannotPost, message: 'The creator cannot post right now.' };
  }
  const directCap = flags.maxDirectPostsPerDay ?? state.options.maxDirectPostsPerDay;
  if (kind === 'direct' && state.posts.countLastDay(user.openId, 'direct') >= directCap) {
    return {
      code: 'spam_risk_too_many_posts',
      message: 'The creator has reached the daily post cap.',
    };
  }
  if (
    kind === 'inbox' &&
    state.posts.countLastDay(user.openId, 'inbox') >= state.options.maxInboxSharesPerDay
  ) {
    return {
      code: 'spam_risk_too_many_pending_share',
      message: `The creator already has ${state.options.maxInboxSharesPerDay} pending inbox shares from the last 24 hours: they must post or delete some in the TikTok app first.`,
    };
  }
  return null;
}

/**
 * What an app TikTok has not audited yet may not do (content-sharing-guidelines): let a sixth
 * creator post within 24 h, post to a public account, or post anything but SELF_ONLY.
 * `privacyLevel` is null for creator_info (nothing chosen yet).
 */
export function unauditedRefusal(
  state: SandboxState,
  auth: { user: SandboxUser; clientKey: string },
  privacyLevel: string | null,
): PublishGate | null {
  if (state.oauth.findClient(auth.clientKey)?.unaudited !== true) return null;
  const posters = state.posts.postersLastDay(auth.clientKey);
  if (!posters.has(auth.user.openId) && posters.size >= UNAUDITED_ACTIVE_USER_CAP) {
    return {
      code: 'reached_active_user_cap',
      message: `Unaudited clients can let at most ${UNAUDITED_ACTIVE_USER_CAP} users post in 24 hours.`,
    };
  }
  if (privacyLevel === null) return null;
  if (!state.control.flagsOf(auth.user.username).privateAccount) {
    return {
      code: 'unaudited_client_can_only_post_to_private_accounts',
      message: 'Unaudited clients can only post to private accounts.',
    };
  }
  if (privacyLevel !== 'SELF_ONLY') {
    return {
      code: 'unaudited_client_can_only_post_to_private_accounts',
      message: 'Unaudited clients can only post with privacy_level SELF_ONLY.',
    };
  }
  return null;
}
