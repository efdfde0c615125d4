// TikTok's daily cap as the planner sees it: the zone its days are counted in, and the account's
// posts around a plan's.
import {
  DEFAULT_HORIZON_DAYS,
  planDailyCap,
  type DailyCapPlan,
} from '@cadence/shared/schedule/daily-cap';
import { SUPPORTED_INSTANTS_END_MS } from '@cadence/shared/schedule/planner';
import type { ScheduleContext } from './service-context.ts';

export const DAY_MS = 24 * 60 * 60_000;

/** The zone whose days TikTok's daily cap is counted in: the user's setting, else `fallback`. */
export async function capZone(
  context: ScheduleContext,
  userId: string,
  fallback: string,
): Promise<string> {
  return (await context.deps.users.timeZoneOf(userId)) ?? fallback;
}

/**
 * The cap planner over the account's posts around `posts` (a day before the first to a year
 * after the last, so every suggestion knows the days it lands on).
 */
export async function capPlanFor(
  context: ScheduleContext,
  userId: string,
  accountId: string,
  posts: readonly { dueAt: Date }[],
  timeZone: string,
): Promise<DailyCapPlan<number>> {
  const { dayCounts, dailyPostCap } = context.deps;
  const times = posts.map((post) => post.dueAt.getTime());
  const from = new Date(Math.min(...times) - DAY_MS);
  // Never past the supported years (a post on 9998-12-31 would look a year into 10000, which
  // PostgreSQL cannot read): the cap planner sees no posts there, as there can be none.
  const to = new Date(
    Math.min(Math.max(...times) + (DEFAULT_HORIZON_DAYS + 1) * DAY_MS, SUPPORTED_INSTANTS_END_MS),
  );
  const existing = await dayCounts(userId, accountId, from, to, timeZone);
  return planDailyCap({
    existing,
    proposed: posts.map((post, index) => ({ key: index, dueAt: post.dueAt })),
    cap: dailyPostCap,
    timeZone,
  });
}
