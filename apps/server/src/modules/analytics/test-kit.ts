// Helpers for analytics tests and benchmarks (not a test file itself).
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import './db-types.ts';

/**
 * A year of history written straight to the tables: one analytics account with hourly account
 * snapshots for 365 days and a video a day, each read hourly for 48 h then daily. Returns the
 * analytics account's id and how many snapshot rows it holds.
 */
export async function seedYearOfHistory(
  db: Kysely<Database>,
  userId: string,
  openId: string,
): Promise<{ id: string; snapshotRows: number }> {
  const account = await db
    .insertInto('analytics_accounts')
    .values({ user_id: userId, open_id: openId, username: 'year_of_history' })
    .returning('id')
    .executeTakeFirstOrThrow();
  const id = account.id;
  await sql`
    insert into analytics_account_snapshots (analytics_account_id, taken_at, follower_count,
      following_count, likes_count, video_count, view_total, like_total, comment_total, share_total)
    select ${id}, now() - (n || ' hours')::interval, 10000 + (8760 - n), 100, n * 5, n / 24,
      (8760 - n) * 400, (8760 - n) * 30, (8760 - n) * 2, 8760 - n
    from generate_series(0, 8759) as n`.execute(db);
  await sql`
    insert into analytics_videos (analytics_account_id, user_id, video_id, title, posted_at,
      view_count, like_count, comment_count, share_count, views_at_24h, first_seen_at,
      last_snapshot_at, next_snapshot_at)
    select ${id}, ${userId}, (7000000000000000000 + d)::text, 'Day ' || d,
      now() - (d || ' days')::interval - interval '5 hours', 1000 + d * 7, 90 + d, 9, 4,
      900 + (d * 37) % 500, now() - (d || ' days')::interval, now(), now() + interval '1 day'
    from generate_series(0, 364) as d`.execute(db);
  await sql`
    insert into analytics_video_snapshots (video_row_id, taken_at, view_count, like_count,
      comment_count, share_count)
    select v.id, v.posted_at + (h || ' hours')::interval, h * 10, h, 0, 0
    from analytics_videos v, generate_series(1, 48) as h
    where v.analytics_account_id = ${id}
    union all
    select v.id, v.posted_at + (d || ' days')::interval, 500 + d * 10, 50 + d, 1, 1
    from analytics_videos v, generate_series(3, 365) as d
    where v.analytics_account_id = ${id} and v.posted_at + (d || ' days')::interval < now()`.execute(
    db,
  );
  const rows = await sql<{ count: number }>`
    select (select count(*) from analytics_account_snapshots where analytics_account_id = ${id})::int
      + (select count(*)::int from analytics_video_snapshots s
         join analytics_videos v on v.id = s.video_row_id where v.analytics_account_id = ${id})
      as count`.execute(db);
  return { id, snapshotRows: rows.rows[0]?.count ?? 0 };
}

/** How many of the user's analytics accounts have synced, and how many videos they hold. */
export async function syncProgress(
  db: Kysely<Database>,
  userId: string,
): Promise<{ synced: number; videos: number }> {
  const rows = await sql<{ synced: number; videos: number }>`
    select
      (select count(*)::int from analytics_accounts
        where user_id = ${userId} and last_synced_at is not null) as synced,
      (select count(*)::int from analytics_videos where user_id = ${userId}) as videos`.execute(db);
  return rows.rows[0] ?? { synced: 0, videos: 0 };
}
