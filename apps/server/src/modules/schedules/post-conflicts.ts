// Why a post action is refused in the post's current state: the 409s of editing, rescheduling,
// restoring and retrying.
import { failRemedy } from '@cadence/shared/publish-fail-reasons';
import type { PostStatus } from '@cadence/shared/schemas/schedule';
import type { TranslationKey } from '@cadence/shared/translation-key';
import { AppError } from '../../lib/app-error.ts';
import { scheduleServiceErrorKeys as keys } from './error-keys.ts';

export function wrongState(key: TranslationKey, field = 'status'): AppError {
  return new AppError('conflict', 'The post is not in a state that allows this', {
    [field]: key,
  });
}

/** Why a post that is not pending can no longer be edited, by what it is now. */
export function lockedKey(status: PostStatus): TranslationKey {
  switch (status) {
    case 'publishing':
      return keys.lockedPublishing;
    case 'completed':
      return keys.lockedPublished;
    case 'failed':
    case 'cancelled':
      return keys.lockedClosed;
    case 'pending':
      return keys.notPending;
  }
}

/** A failed post that cannot work as it is (failRemedy) is neither retried nor rescheduled. */
export function requireCanSucceed(row: { status: PostStatus; fail_reason: string | null }): void {
  if (row.status === 'failed' && failRemedy(row.fail_reason) === 'schedule_again') {
    throw wrongState(keys.cannotSucceedAsIs);
  }
}

export function requireFuture(dueAt: Date, now: Date, field = 'dueAt'): void {
  if (dueAt.getTime() <= now.getTime()) {
    throw new AppError('validation_failed', 'The new time is in the past', {
      [field]: 'errors.dateInPast',
    });
  }
}
