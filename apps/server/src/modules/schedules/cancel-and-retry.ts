// Ending a post's course and starting it again: cancel a pending post, restore a cancelled one,
// retry a failed one.
import type { Post } from '@cadence/shared/schemas/schedule';
import { AppError } from '../../lib/app-error.ts';
import { scheduleServiceErrorKeys as keys } from './error-keys.ts';
import { requireCanSucceed, wrongState } from './post-conflicts.ts';
import { postAfterChange, requirePost, type ScheduleContext } from './service-context.ts';

export function createCancelAndRetry(context: ScheduleContext) {
  const { repository } = context.deps;
  return {
    async cancel(userId: string, id: string): Promise<Post> {
      const changed = await repository.cancel(userId, id);
      return postAfterChange(context, userId, id, changed, keys.notPending);
    },

    /** A cancelled post back to pending at its own time, if that time is still ahead. */
    async restore(userId: string, id: string): Promise<Post> {
      const row = await requirePost(context, userId, id);
      if (row.status !== 'cancelled') throw wrongState(keys.notRestorable);
      if (row.account_id === null) throw wrongState(keys.accountDeleted, 'accountId');
      const changed = await repository.reopen(userId, id, ['cancelled'], {
        keep: true,
        after: context.now(),
      });
      const post = await postAfterChange(context, userId, id, changed, (status) =>
        status === 'cancelled' ? keys.restoreTimePassed : keys.notRestorable,
      );
      await context.wakeAll([{ id, dueAt: row.due_at }]);
      return post;
    },

    async retry(userId: string, id: string): Promise<Post> {
      const row = await requirePost(context, userId, id);
      if (row.status === 'failed' && row.account_id === null) {
        throw new AppError('conflict', 'The account of this post was deleted', {
          accountId: keys.accountDeleted,
        });
      }
      requireCanSucceed(row);
      const dueAt = context.now();
      const changed = await repository.retry(userId, id, dueAt);
      const post = await postAfterChange(context, userId, id, changed, keys.notFailed);
      await context.wakeAll([{ id, dueAt }]);
      return post;
    },
  };
}
