import { creatorOptionsForPost } from '@cadence/shared/schedule/creator-options';
import { usePublicConfig } from '../../../lib/public-config.ts';
import { useCreatorInfo } from '../api/get-creator-info.ts';
import type { ScheduleFormState } from './form-state.ts';
import {
  creatorBlocksSubmit,
  offeredPrivacyLevels,
  postsDueLaterDay,
  submitBlockedKey,
} from './tiktok-rules.ts';

/**
 * What TikTok allows the form's posts (docs/tiktok-audit-checklist.md): the creator's info and
 * options, the privacy levels offered, and what stops the submit. `accountId`: '' while the form
 * is closed or no account is chosen (nothing is asked then).
 */
export function useTikTokAllowance(accountId: string, state: ScheduleFormState, today: string) {
  const creator = useCreatorInfo(accountId);
  // While TikTok says the account cannot post now, posts due on a later day use its last answer.
  const laterDay = postsDueLaterDay(state, today);
  const creatorOptions = creator.data && creatorOptionsForPost(creator.data, laterDay);
  const cannotPost = creatorBlocksSubmit(creator.data, creator.isError, laterDay);
  // Whether TikTok audited the app comes with the server's configuration. Until it is in, the
  // privacy levels wait as they do for the account's creator info: an unaudited app may offer
  // 'Only me' alone. Should it never come, the server's own rule still stands.
  const config = usePublicConfig();
  const audited = config.data?.tiktokAppAudited ?? true;
  const blockedKey = submitBlockedKey(
    state.commercialContent,
    creatorOptions ?? undefined,
    audited,
    state.delivery,
  );
  const offered =
    creator.data && creatorOptions && !config.isPending
      ? {
          ...creator.data,
          ...creatorOptions,
          privacyLevelOptions: offeredPrivacyLevels(creatorOptions, audited),
        }
      : undefined;
  return {
    creator,
    creatorOptions,
    cannotPost,
    configPending: config.isPending,
    audited,
    blockedKey,
    offered,
  };
}
