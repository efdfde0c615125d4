// The scheduler form's submission and its preview: times planned by the shared planner, posts
// beyond the daily cap shown or postponed to the next day with room.
import type { SchedulePreview, SchedulePreviewBody } from '@cadence/shared/schemas/planning';
import { localDateOf, planSchedule, previewSchedule } from '@cadence/shared/schedule/planner';
import { planErrorFields, type CreateScheduleRequest } from '@cadence/shared/schemas/schedule';
import { AppError } from '../../lib/app-error.ts';
import type { RequestKey } from '../../lib/idempotency.ts';
import { capPlanFor, capZone } from './daily-cap-planning.ts';
import {
  schedulePosts,
  type PlanPosts,
  type ScheduleMade,
  type Timing,
} from './schedule-creation.ts';
import type { ScheduleContext } from './service-context.ts';

/** Randomized times (±1 h) are Pro's. */
async function requireProForRandomized(
  context: ScheduleContext,
  userId: string,
  randomized: boolean,
): Promise<void> {
  if (randomized && !(await context.deps.users.isPro(userId))) {
    throw new AppError('pro_required', 'Randomized times are a Pro feature');
  }
}

/** The planner's times for the form's request, postponed past full days when it asks so. */
function formPlan(
  context: ScheduleContext,
  userId: string,
  request: CreateScheduleRequest,
): PlanPosts {
  return async (account) => {
    const plan = planSchedule(request, context.now(), context.deps.random);
    if (!plan.ok) {
      throw new AppError(
        'validation_failed',
        'The schedule cannot be planned',
        planErrorFields[plan.code],
      );
    }
    if (request.overCap !== 'postpone') return plan.posts;
    const zone = await capZone(context, userId, request.timeZone);
    const capPlan = await capPlanFor(context, userId, account.id, plan.posts, zone);
    return plan.posts.map((post, index) => {
      const moved = capPlan.overflow.find((over) => over.key === index)?.suggestedDueAt;
      return moved ? { ...post, dueAt: moved } : post;
    });
  };
}

export function createScheduleForm(context: ScheduleContext) {
  const { deps, now } = context;
  return {
    /** POST /api/schedules: the form's request, planned by the shared planner. */
    async create(
      userId: string,
      request: CreateScheduleRequest,
      requestKey: RequestKey | null = null,
    ): Promise<ScheduleMade> {
      const randomized =
        request.publishType === 'spaced' && request.spacedInterval?.randomizeTime === true;
      await requireProForRandomized(context, userId, randomized);
      const timing: Timing = {
        kind: request.publishType,
        timeZone: request.timeZone,
        date: request.date ?? null,
        time: request.time ?? null,
        spacedInterval: request.spacedInterval ?? null,
        randomized,
        draftId: request.draftId,
      };
      const plan = formPlan(context, userId, request);
      return schedulePosts(context, userId, request, timing, plan, requestKey);
    },

    /**
     * What the form would plan, before it is submitted: every slot (with its ±1 h window when
     * randomized), its day in the user's zone, and the posts beyond the daily cap with the same
     * time on the next day with room (what overCap: 'postpone' would do).
     */
    async preview(userId: string, body: SchedulePreviewBody): Promise<SchedulePreview> {
      const account = await deps.accounts.findForUser(userId, body.accountId);
      if (!account) {
        throw new AppError('conflict', 'No such TikTok account', {
          accountId: 'errors.selectTikTokAccount',
        });
      }
      await requireProForRandomized(
        context,
        userId,
        body.spacedInterval?.randomizeTime === true && body.publishType === 'spaced',
      );
      const preview = previewSchedule(body, now());
      if (!preview.ok) {
        throw new AppError(
          'validation_failed',
          'The schedule cannot be planned',
          planErrorFields[preview.code],
        );
      }
      const zone = await capZone(context, userId, body.timeZone);
      const capPlan = await capPlanFor(context, userId, account.id, preview.posts, zone);
      const overflow = new Map(capPlan.overflow.map((over) => [over.key, over]));
      return {
        posts: preview.posts.map((post, index) => {
          const over = overflow.get(index);
          return {
            mediaId: post.mediaId,
            dueAt: post.dueAt.toISOString(),
            earliest: post.earliest.toISOString(),
            latest: post.latest.toISOString(),
            date: localDateOf(post.dueAt, zone),
            overCap: over !== undefined,
            suggestedDueAt: over?.suggestedDueAt?.toISOString() ?? null,
          };
        }),
        days: capPlan.days,
        dailyCap: deps.dailyPostCap,
        timeZone: zone,
      };
    },
  };
}
