import { postingBanCode, type CreatorInfo } from '@cadence/shared/schemas/account';
import {
  creatorOptionsForPost,
  type DatedCreatorOptions,
} from '@cadence/shared/schedule/creator-options';
import { addDaysToDate, localDateOf, zonedDateTimeToUtc } from '@cadence/shared/schedule/planner';
import type { TranslationKey } from '@cadence/shared/translation-key';
import { AppError } from '../../lib/app-error.ts';
import { TikTokApiError } from '../../tiktok/tiktok-error.ts';
import type { CreatorAccount, ReadCreatorInfo } from '../accounts/service.ts';
import { AccountNeedsReconnectError } from '../accounts/token-service.ts';

/** Translation keys of TikTok's refusals at submit (fr/en texts in the locale files). */
export const creatorRuleKeys = {
  accountNotConnected: 'schedules.errors.accountNotConnected',
  cannotPostNow: 'schedules.errors.cannotPostNow',
  cannotPostToday: 'schedules.errors.cannotPostToday',
  postingSuspended: 'schedules.errors.postingSuspended',
  tiktokUnavailable: 'schedules.errors.tiktokUnavailable',
} as const satisfies Record<string, TranslationKey>;
const keys = creatorRuleKeys;

function refusedAccount(message: string, key: TranslationKey): AppError {
  return new AppError('conflict', message, { accountId: key });
}

/** TikTok's answer to creator_info at submit (as TikTok requires), its failures as AppErrors. */
export async function askCreator(
  readCreatorInfo: ReadCreatorInfo,
  account: CreatorAccount,
): Promise<CreatorInfo> {
  try {
    return await readCreatorInfo(account);
  } catch (error) {
    if (
      error instanceof AccountNeedsReconnectError ||
      (error instanceof TikTokApiError && error.kind === 'auth')
    ) {
      throw refusedAccount('The account must be reconnected', keys.accountNotConnected);
    }
    if (error instanceof TikTokApiError) {
      throw new AppError('unavailable', 'TikTok did not answer', {
        accountId: keys.tiktokUnavailable,
      });
    }
    throw error;
  }
}

/** Midnight starting the day after `at`'s day in `timeZone`. */
export function startOfNextDay(at: Date, timeZone: string): Date {
  return zonedDateTimeToUtc(addDaysToDate(localDateOf(at, timeZone), 1), '00:00', timeZone);
}

/**
 * The creator options posts due at `dueAts` are checked against. While TikTok says the creator
 * cannot post now, a post due now or today (in `timeZone`) is refused, and every post of an
 * account TikTok suspended from posting; posts all due on later days use TikTok's last answer
 * (`lastKnown`: the publisher asks again when each is due), or, when TikTok never answered for
 * this account, null: accepted unchecked, and checked by the publisher alone.
 */
export function creatorOptionsAt(
  info: CreatorInfo,
  due: { immediate: boolean; dueAts: readonly Date[]; timeZone: string; now: Date },
): DatedCreatorOptions | null {
  const reason = info.cannotPostReason;
  if (reason === null) return creatorOptionsForPost(info, false);
  if (reason === postingBanCode) {
    throw refusedAccount('TikTok suspended posting for this account', keys.postingSuspended);
  }
  if (due.immediate) throw refusedAccount('The creator cannot post now', keys.cannotPostNow);
  const today = localDateOf(due.now, due.timeZone);
  if (due.dueAts.some((dueAt) => localDateOf(dueAt, due.timeZone) <= today)) {
    throw refusedAccount('The creator cannot post today', keys.cannotPostToday);
  }
  return creatorOptionsForPost(info, true);
}
