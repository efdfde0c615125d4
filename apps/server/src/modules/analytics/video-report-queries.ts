import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import './db-types.ts';

/** Reads behind the API about the videos posted on the user's accounts. */
export function createVideoReportQueries(db: Kysely<Database>) {
  return {
    /** Videos posted in [from, to) on these accounts, most viewed first. */
    async videosPostedBetween(accountIds: readonly string[], from: Date, to: Date, limit: number) {
      if (accountIds.length === 0) return [];
      return db
        .selectFrom('analytics_videos as v')
        .innerJoin('analytics_accounts as a', 'a.id', 'v.analytics_account_id')
        .select([
          'v.id',
          'v.video_id',
          'a.username',
          'v.title',
          'v.cover_image_url',
          'v.share_url',
          'v.posted_at',
          'v.view_count',
          'v.like_count',
          'v.comment_count',
          'v.share_count',
          'v.post_id',
        ])
        .where('v.analytics_account_id', 'in', accountIds)
        .where('v.posted_at', '>=', from)
        .where('v.posted_at', '<', to)
        .orderBy('v.view_count', 'desc')
        .orderBy('v.posted_at', 'desc')
        .limit(limit)
        .execute();
    },

    /** Per day (in `timeZone`) of [from, to): videos posted and their views to date. */
    async videosPostedPerDay(
      accountIds: readonly string[],
      from: Date,
      to: Date,
      timeZone: string,
    ) {
      if (accountIds.length === 0) return [];
      const ids = sql.join(accountIds.map((id) => sql`${id}::uuid`));
      const rows = await sql<{ day: string; videos: number; views: number }>`
        select to_char(posted_at at time zone ${timeZone}, 'YYYY-MM-DD') as day,
          count(*)::int as videos, coalesce(sum(view_count), 0)::bigint as views
        from analytics_videos
        where analytics_account_id in (${ids}) and posted_at >= ${from} and posted_at < ${to}
        group by 1
      `.execute(db);
      return rows.rows;
    },

    async countVideosPostedBetween(accountIds: readonly string[], from: Date, to: Date) {
      if (accountIds.length === 0) return 0;
      const row = await db
        .selectFrom('analytics_videos')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('analytics_account_id', 'in', accountIds)
        .where('posted_at', '>=', from)
        .where('posted_at', '<', to)
        .executeTakeFirst();
      return Number(row?.count ?? 0);
    },

    /** What best times are learned from: each video's 24-hour views, or its settled views. */
    async bestTimeInputs(accountIds: readonly string[]) {
      if (accountIds.length === 0) return [];
      return db
        .selectFrom('analytics_videos')
        .select([
          'analytics_account_id',
          'posted_at',
          'views_at_24h',
          'view_count',
          'first_seen_at',
          'last_snapshot_at',
        ])
        .where('analytics_account_id', 'in', accountIds)
        .execute();
    },
  };
}
