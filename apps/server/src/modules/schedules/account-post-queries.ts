// An account's posts counted: per day against TikTok's daily cap, the slots they hold, and the
// pending ones shown on account cards.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import './db-types.ts';
import { inZone } from './in-zone.ts';

/** Statuses that use up one of TikTok's daily posts (or will). */
const capStatuses = ['pending', 'publishing', 'completed'] as const;

export function createAccountPostQueries(db: Kysely<Database>) {
  /** An account's posts due in [from, to) that use up a daily post (see capStatuses). */
  const accountCapPosts = (userId: string, accountId: string, from: Date, to: Date) =>
    db
      .selectFrom('posts')
      .where('posts.user_id', '=', userId)
      .where('posts.account_id', '=', accountId)
      .where('posts.status', 'in', capStatuses)
      .where('posts.due_at', '>=', from)
      .where('posts.due_at', '<', to);

  return {
    /**
     * One account's posts that count towards TikTok's cap, per day of `timeZone`, for days
     * starting in [from, to) (`excludePostId`: the post being moved, which must not count itself).
     */
    async accountDayCounts(
      userId: string,
      accountId: string,
      from: Date,
      to: Date,
      timeZone: string,
      excludePostId?: string,
    ): Promise<Map<string, number>> {
      const day = sql<string>`to_char(posts.due_at at time zone ${timeZone}, 'YYYY-MM-DD')`;
      let query = accountCapPosts(userId, accountId, from, to).select([
        day.as('date'),
        sql<number>`count(*)::int`.as('count'),
      ]);
      if (excludePostId !== undefined) query = query.where('posts.id', '<>', excludePostId);
      const rows = await inZone(() => query.groupBy(sql`1`).execute());
      return new Map(rows.map((row) => [row.date, Number(row.count)]));
    },

    /** Due times of an account's posts in [from, to) that hold a posting slot (not cancelled or failed). */
    async accountDueTimes(
      userId: string,
      accountId: string,
      from: Date,
      to: Date,
    ): Promise<Date[]> {
      const rows = await accountCapPosts(userId, accountId, from, to)
        .select('posts.due_at')
        .execute();
      return rows.map((row) => row.due_at);
    },

    async pendingByAccount(
      userId: string,
    ): Promise<Map<string, { count: number; nextDueAt: Date | null }>> {
      const rows = await db
        .selectFrom('posts')
        .select(['account_id'])
        .select((eb) => [
          eb.fn.countAll<number>().as('count'),
          eb.fn.min<Date>('due_at').as('next_due_at'),
        ])
        .where('user_id', '=', userId)
        .where('status', '=', 'pending')
        .where('account_id', 'is not', null)
        .groupBy('account_id')
        .execute();
      return new Map(
        rows.flatMap((row) =>
          row.account_id === null
            ? []
            : [[row.account_id, { count: Number(row.count), nextDueAt: row.next_due_at ?? null }]],
        ),
      );
    },
  };
}
