import { postingBanCode, type CreatorInfo, type CreatorOptions } from '../schemas/account.ts';

/** Creator options, and when TikTok gave them: `fetchedAt` is null for its live answer. */
export type DatedCreatorOptions = CreatorOptions & { fetchedAt: string | null };

/**
 * The creator_info options a post may use, by whether it is due on a later day than today (in
 * the user's zone): TikTok's live answer when the creator can post now; when TikTok says they
 * cannot (today's cap, an unaudited app's user cap…), the last answer it gave (`lastKnown`) for a
 * post due on a later day, which the publisher checks again when the post is due. Null, so no
 * option can be chosen, for a post due today on such an account, for an account TikTok suspended
 * from posting, and when no earlier answer is known.
 */
export function creatorOptionsForPost(
  info: CreatorInfo,
  laterDay: boolean,
): DatedCreatorOptions | null {
  if (info.cannotPostReason === null) return { ...info, fetchedAt: null };
  if (!laterDay || info.cannotPostReason === postingBanCode) return null;
  return info.lastKnown;
}
