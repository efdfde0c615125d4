import type { TranslationKey } from '@cadence/shared/translation-key';
import { creatorRuleKeys } from './creator-rules.ts';

/** Translation keys this module adds (fr/en texts are in the lead's locale files). */
export const scheduleServiceErrorKeys = {
  ...creatorRuleKeys,
  videoTooLong: 'schedules.errors.videoTooLong',
  videoNotPostable: 'schedules.errors.videoNotPostable',
  notPending: 'schedules.errors.notPending',
  notFailed: 'schedules.errors.notFailed',
  accountDeleted: 'schedules.errors.accountDeleted',
  cannotSucceedAsIs: 'schedules.errors.cannotSucceedAsIs',
  lockedPublishing: 'schedules.errors.lockedPublishing',
  lockedPublished: 'schedules.errors.lockedPublished',
  lockedClosed: 'schedules.errors.lockedClosed',
  notRestorable: 'schedules.errors.notRestorable',
  restoreTimePassed: 'schedules.errors.restoreTimePassed',
  notReschedulable: 'schedules.errors.notReschedulable',
  noSlots: 'schedules.errors.noSlots',
  noFreeSlot: 'schedules.errors.noFreeSlot',
  unauditedSelfOnly: 'schedules.errors.unauditedSelfOnly',
  unauditedPublicAccount: 'schedules.errors.unauditedPublicAccount',
} as const satisfies Record<string, TranslationKey>;
