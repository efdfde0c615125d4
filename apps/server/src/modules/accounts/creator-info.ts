import {
  postingBanCode,
  privacyLevels,
  type CreatorInfo,
  type PrivacyLevel,
} from '@cadence/shared/schemas/account';
import type { TikTokClient } from '../../tiktok/tiktok-client.ts';
import { TikTokApiError } from '../../tiktok/tiktok-error.ts';
import type { AccountRepository, AccountRow } from './repository.ts';
import type { TokenService } from './token-service.ts';

function isPrivacyLevel(value: string): value is PrivacyLevel {
  return (privacyLevels as readonly string[]).includes(value);
}

/** The account as creator_info needs it: its id, and who it is should TikTok refuse to say. */
export type CreatorAccount = Pick<
  AccountRow,
  'id' | 'open_id' | 'username' | 'display_name' | 'avatar_url'
>;

/**
 * Asks TikTok what the creator may post (creator_info) and keeps each successful answer's options
 * as the account's last known ones. When TikTok says the creator cannot post now, the answer
 * carries its reason and, unless TikTok suspended the account, those last known options
 * (`lastKnown`) for posts due on a later day. Other refusals throw as the token service and the
 * TikTok client do (AccountNeedsReconnectError, TikTokApiError).
 */
export function createCreatorInfoReader(deps: {
  accounts: Pick<AccountRepository, 'rememberCreatorOptions' | 'lastCreatorOptions'>;
  tokens: Pick<TokenService, 'withAccessToken'>;
  tiktok: Pick<TikTokClient, 'queryCreatorInfo'>;
  now?: () => Date;
}) {
  const { accounts, tokens, tiktok } = deps;
  const now = deps.now ?? (() => new Date());

  return async function readCreatorInfo(account: CreatorAccount): Promise<CreatorInfo> {
    try {
      const info = await tokens.withAccessToken(account.id, (token) =>
        tiktok.queryCreatorInfo(token),
      );
      const options = {
        privacyLevelOptions: info.privacyLevelOptions.filter(isPrivacyLevel),
        commentDisabled: info.commentDisabled,
        duetDisabled: info.duetDisabled,
        stitchDisabled: info.stitchDisabled,
        maxVideoPostDurationSec: info.maxVideoPostDurationSec,
      };
      if (account.open_id !== null) {
        await accounts.rememberCreatorOptions(
          { id: account.id, openId: account.open_id },
          options,
          now(),
        );
      }
      return {
        nickname: info.creatorNickname,
        username: info.creatorUsername,
        avatarUrl: info.creatorAvatarUrl,
        ...options,
        cannotPostReason: null,
        lastKnown: null,
      };
    } catch (error) {
      if (!(error instanceof TikTokApiError) || error.kind !== 'cannot_post_now') throw error;
      const known =
        error.code === postingBanCode ? undefined : await accounts.lastCreatorOptions(account.id);
      return {
        nickname: account.display_name ?? account.username,
        username: account.username,
        avatarUrl: account.avatar_url ?? '',
        privacyLevelOptions: [],
        commentDisabled: true,
        duetDisabled: true,
        stitchDisabled: true,
        // Unknown while TikTok refuses: never "0 seconds at most".
        maxVideoPostDurationSec: null,
        cannotPostReason: error.code,
        lastKnown: known
          ? {
              privacyLevelOptions: known.privacy_level_options.filter(isPrivacyLevel),
              commentDisabled: known.comment_disabled,
              duetDisabled: known.duet_disabled,
              stitchDisabled: known.stitch_disabled,
              maxVideoPostDurationSec: known.max_video_post_duration_sec,
              fetchedAt: known.fetched_at.toISOString(),
            }
          : null,
      };
    }
  };
}

export type ReadCreatorInfo = ReturnType<typeof createCreatorInfoReader>;
