import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import './db-types.ts';

/** Reads behind the API about the user's analytics accounts and their daily totals. */
export function createAccountReportQueries(db: Kysely<Database>) {
  return {
    /** The ids of the user's analytics accounts (ownership checks). */
    async accountIdsOfUser(userId: string): Promise<string[]> {
      const rows = await db
        .selectFrom('analytics_accounts')
        .select('id')
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .execute();
      return rows.map((row) => row.id);
    },

    /** The user's analytics accounts, with whether their card is still connected. */
    async accountsOfUser(userId: string) {
      const rows = await sql<{
        id: string;
        username: string;
        display_name: string | null;
        avatar_url: string | null;
        account_id: string | null;
        status: string | null;
        last_synced_at: Date | null;
        video_count: number;
      }>`
        select a.id, a.username, a.display_name, a.avatar_url, a.account_id, t.status,
          a.last_synced_at,
          a.video_count
        from analytics_accounts a
        left join tiktok_accounts t on t.id = a.account_id
        where a.user_id = ${userId}
        order by a.created_at
      `.execute(db);
      return rows.rows;
    },

    /**
     * Per account and per day (in `timeZone`) from `from` to before `to`: the last snapshot of the
     * day; plus, per account, the last snapshot before `from` (the baseline the first day's gains
     * are counted from: one index seek, however long the history before it).
     */
    async dailySnapshots(accountIds: readonly string[], from: Date, to: Date, timeZone: string) {
      if (accountIds.length === 0) return { days: [], baselines: [] };
      const ids = sql.join(accountIds.map((id) => sql`${id}::uuid`));
      const days = await sql<{
        analytics_account_id: string;
        day: string;
        follower_count: number | null;
        view_total: number;
        like_total: number;
        comment_total: number;
        share_total: number;
      }>`
        select distinct on (analytics_account_id, day) analytics_account_id,
          to_char(taken_at at time zone ${timeZone}, 'YYYY-MM-DD') as day,
          follower_count, view_total, like_total, comment_total, share_total
        from analytics_account_snapshots
        where analytics_account_id in (${ids}) and taken_at >= ${from} and taken_at < ${to}
        order by analytics_account_id, day, taken_at desc
      `.execute(db);
      const accounts = sql.join(accountIds.map((id) => sql`(${id}::uuid)`));
      const baselines = await sql<{
        analytics_account_id: string;
        follower_count: number | null;
        view_total: number;
        like_total: number;
        comment_total: number;
        share_total: number;
      }>`
        select a.id as analytics_account_id, s.*
        from (values ${accounts}) as a (id)
        cross join lateral (
          select follower_count, view_total, like_total, comment_total, share_total
          from analytics_account_snapshots
          where analytics_account_id = a.id and taken_at < ${from}
          order by taken_at desc limit 1
        ) s
      `.execute(db);
      return { days: days.rows, baselines: baselines.rows };
    },

    async findAccount(id: string) {
      return db
        .selectFrom('analytics_accounts')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirst();
    },
  };
}
