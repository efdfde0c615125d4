import {
  creatorOptionsForPost,
  type DatedCreatorOptions,
} from '@cadence/shared/schedule/creator-options';
import {
  postingBanCode,
  type CreatorInfo,
  type PrivacyLevel,
} from '@cadence/shared/schemas/account';
import type { TranslationKey } from '@cadence/shared/translation-key';
import type { ScheduleFormState } from './form-state.ts';

// What TikTok's Content Sharing Guidelines and its audit ask of the composer
// (docs/tiktok-audit-checklist.md): the privacy levels offered, what disables the submit, and what
// the form says of TikTok's options.

/**
 * The privacy levels the form offers: the creator's options from creator_info, or only 'Only me'
 * while TikTok has not audited the app (TIKTOK_APP_AUDITED=false).
 */
export function offeredPrivacyLevels(
  creator: Pick<CreatorInfo, 'privacyLevelOptions'> | undefined,
  audited: boolean,
): PrivacyLevel[] {
  const options = creator?.privacyLevelOptions ?? [];
  return audited ? options : options.filter((level) => level === 'SELF_ONLY');
}

/** An unaudited app cannot post to a public account: creator_info offers it PUBLIC_TO_EVERYONE. */
export function unauditedPublicAccount(
  creator: Pick<CreatorInfo, 'privacyLevelOptions'> | undefined,
  audited: boolean,
): boolean {
  return !audited && (creator?.privacyLevelOptions.includes('PUBLIC_TO_EVERYONE') ?? false);
}

/**
 * Why the publish button is disabled, as the key of the text shown beside it (and on hover), or
 * null. TikTok's guidelines: with the disclosure on, publishing stays disabled until 'Your brand'
 * or 'Branded content' is ticked; an unaudited app cannot post to a public account at all.
 */
export function submitBlockedKey(
  commercialContent: ScheduleFormState['commercialContent'],
  creator: Pick<CreatorInfo, 'privacyLevelOptions'> | undefined,
  audited: boolean,
  delivery: ScheduleFormState['delivery'] = 'direct',
): TranslationKey | null {
  // The unaudited limits are on direct posts; an inbox draft's privacy is set in TikTok's app.
  if (delivery === 'direct' && unauditedPublicAccount(creator, audited))
    return 'scheduler.form.unaudited.publicAccount';
  // An inbox draft carries no labels (the form hides them and sends none).
  if (delivery === 'inbox') return null;
  const { enabled, yourBrand, brandedContent } = commercialContent;
  return enabled && !yourBrand && !brandedContent ? 'errors.commercialContentChoice' : null;
}

/**
 * Whether every post of the form is due on a later day than `today` (the person's 'yyyy-MM-dd'):
 * what decides, while TikTok says the account cannot post now, whether TikTok's last known options
 * apply (creatorOptionsForPost). 'Add to queue' starts tomorrow then (the server skips today).
 */
export function postsDueLaterDay(
  state: Pick<ScheduleFormState, 'publishType' | 'date' | 'interval'>,
  today: string,
): boolean {
  switch (state.publishType) {
    case 'immediate':
      return false;
    case 'scheduled':
      return state.date > today;
    case 'spaced':
      return state.interval.startDate > today;
    case 'queue':
      return true;
  }
}

/**
 * Whether what TikTok says about the account stops this submission: not knowing the account at
 * all (creator info failed), or no options the posts may use (`creatorOptionsForPost`: TikTok's
 * 'cannot post now' stops a post due today and every post of a suspended account, never one due
 * on a later day once TikTok's last options are known).
 */
export function creatorBlocksSubmit(
  creator: CreatorInfo | undefined,
  creatorFailed: boolean,
  laterDay: boolean,
): boolean {
  if (creatorFailed) return true;
  return creator !== undefined && creatorOptionsForPost(creator, laterDay) === null;
}

/**
 * What the form says about TikTok's options while TikTok says the account cannot post now (a
 * suspension is said on the account card alone): whose date they are (`reportedOn`), that a
 * post due today gets none (`laterDayOnly`), or that TikTok never gave any (`noneKnown`).
 */
export type CreatorOptionsNote =
  | { kind: 'reportedOn'; fetchedAt: string }
  | { kind: 'laterDayOnly' }
  | { kind: 'noneKnown' }
  | null;

export function creatorOptionsNote(
  creator: CreatorInfo | undefined,
  options: DatedCreatorOptions | null | undefined,
): CreatorOptionsNote {
  const reason = creator?.cannotPostReason ?? null;
  if (!creator || reason === null || reason === postingBanCode) return null;
  if (options?.fetchedAt != null) return { kind: 'reportedOn', fetchedAt: options.fetchedAt };
  return creator.lastKnown === null ? { kind: 'noneKnown' } : { kind: 'laterDayOnly' };
}
