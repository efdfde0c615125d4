import type { Post } from '@cadence/shared/schemas/schedule';
import type { AccountPostStats } from '../accounts/service.ts';
import { createCancelAndRetry } from './cancel-and-retry.ts';
import { createPostEdits } from './post-edits.ts';
import { createQueueAndSlots } from './queue-and-slots.ts';
import type { ScheduleRepository } from './repository.ts';
import { createScheduleForm } from './schedule-form.ts';
import { createScheduleContext, requirePost, type ScheduleServiceDeps } from './service-context.ts';

/**
 * Schedules (the form's submissions) and their posts, as the signed-in user sees them: made from
 * the form (schedule-form.ts) or the queue (queue-and-slots.ts), through schedule-creation.ts;
 * changed (post-edits.ts), cancelled, restored or retried (cancel-and-retry.ts).
 */
export function createScheduleService(deps: ScheduleServiceDeps) {
  const context = createScheduleContext(deps);
  return {
    ...createScheduleForm(context),
    ...createQueueAndSlots(context),
    ...createPostEdits(context),
    ...createCancelAndRetry(context),

    async get(userId: string, id: string): Promise<Post> {
      return context.toPost(await requirePost(context, userId, id));
    },

    /** For the live stream: posts of the user changed at or after `since`. */
    async changedSince(userId: string, since: Date): Promise<Post[]> {
      return (await deps.repository.changedSince(userId, since)).map(context.toPost);
    },
  };
}

export type ScheduleService = ReturnType<typeof createScheduleService>;

/** The accounts module's view of posts (counts on account cards, cancel on account removal). */
export function accountPostStats(repository: ScheduleRepository): AccountPostStats {
  return {
    pendingByAccount: (userId) => repository.pendingByAccount(userId),
    cancelPendingForAccount: (userId, accountId) =>
      repository.cancelPendingForAccount(userId, accountId),
  };
}
