// The publisher's side of TikTok's daily cap: is today's cap used up by posts ahead of this one,
// and where does a post go when it is (the same time on the account's next day with room).
import {
  DEFAULT_HORIZON_DAYS,
  nextDayWithRoom,
  sameTimeOn,
} from '@cadence/shared/schedule/daily-cap';
import { addDaysToDate, localDateOf, zonedDateTimeToUtc } from '@cadence/shared/schedule/planner';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { createScheduleRepository } from '../schedules/repository.ts';

/** The post being published, as the guard needs it. */
export interface CappedPost {
  id: string;
  user_id: string;
  account_id: string;
  schedule_id: string;
  due_at: Date;
  /** The user's zone, else the schedule's, when the caller has it (the claim reads it). */
  zone?: string;
}

export interface DailyCapGuard {
  /**
   * True when the account's posts due earlier today (in the user's zone) that are publishing or
   * published already reach the cap: TikTok would refuse this one. Counting only posts ahead of
   * it in (due time, id) order lets the first `cap` of a crowded minute go, whatever the order
   * workers take them in.
   */
  reachedBefore(post: CappedPost, now: Date): Promise<boolean>;
  /** The post's time of day on the account's next day (after today) with room; null: none in a year. */
  nextDayWithRoom(post: CappedPost, now: Date): Promise<Date | null>;
}

const DAY_MS = 24 * 60 * 60_000;

/** `cap`: TIKTOK_DAILY_POST_CAP. Days are the user's (their zone, else the schedule's). */
export function createDailyCapGuard(db: Kysely<Database>, cap: number): DailyCapGuard {
  const schedules = createScheduleRepository(db);

  async function zoneOf(post: CappedPost): Promise<string> {
    if (post.zone !== undefined) return post.zone;
    const row = await db
      .selectFrom('schedules')
      .innerJoin('user', 'user.id', 'schedules.user_id')
      .select(['user.timeZone', 'schedules.time_zone'])
      .where('schedules.id', '=', post.schedule_id)
      .executeTakeFirst();
    return row?.timeZone ?? row?.time_zone ?? 'UTC';
  }

  return {
    async reachedBefore(post, now) {
      const zone = await zoneOf(post);
      const today = localDateOf(now, zone);
      const row = await db
        .selectFrom('posts')
        .select(sql<number>`count(*)::int`.as('count'))
        .where('user_id', '=', post.user_id)
        .where('account_id', '=', post.account_id)
        .where('status', 'in', ['publishing', 'completed'] as const)
        .where('due_at', '>=', zonedDateTimeToUtc(today, '00:00', zone))
        .where('due_at', '<', zonedDateTimeToUtc(addDaysToDate(today, 1), '00:00', zone))
        .where(sql<boolean>`(due_at, id) < (${post.due_at}, ${post.id})`)
        .executeTakeFirstOrThrow();
      return Number(row.count) >= cap;
    },

    async nextDayWithRoom(post, now) {
      const zone = await zoneOf(post);
      const today = localDateOf(now, zone);
      const counts = await schedules.accountDayCounts(
        post.user_id,
        post.account_id,
        new Date(now.getTime() - DAY_MS),
        new Date(now.getTime() + (DEFAULT_HORIZON_DAYS + 2) * DAY_MS),
        zone,
        post.id,
      );
      const day = nextDayWithRoom(counts, today, cap);
      return day === null ? null : sameTimeOn(post.due_at, day, zone);
    },
  };
}
