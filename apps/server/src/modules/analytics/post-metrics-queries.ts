import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import './db-types.ts';

/** Reads behind the API about how the user's own posts did once on TikTok. */
export function createPostMetricsQueries(db: Kysely<Database>) {
  return {
    /** The user's posts among `postIds` and their synced videos (null when not synced yet). */
    async postsWithVideos(userId: string, postIds: readonly string[]) {
      if (postIds.length === 0) return [];
      const ids = sql.join(postIds.map((id) => sql`${id}::uuid`));
      const rows = await sql<{
        post_id: string;
        video_row_id: string | null;
        video_id: string | null;
        username: string | null;
        title: string | null;
        cover_image_url: string | null;
        share_url: string | null;
        posted_at: Date | null;
        view_count: number | null;
        like_count: number | null;
        comment_count: number | null;
        share_count: number | null;
      }>`
        select p.id as post_id, v.id as video_row_id, v.video_id, a.username, v.title,
          v.cover_image_url, v.share_url, v.posted_at, v.view_count, v.like_count,
          v.comment_count, v.share_count
        from posts p
        left join lateral (
          select * from analytics_videos v
          where v.user_id = p.user_id
            and (v.post_id = p.id or (p.tiktok_post_id is not null and v.video_id = p.tiktok_post_id))
          order by v.post_id is null, v.last_snapshot_at desc nulls last
          limit 1
        ) v on true
        left join analytics_accounts a on a.id = v.analytics_account_id
        where p.user_id = ${userId} and p.id in (${ids})
      `.execute(db);
      return rows.rows;
    },

    /** A video's views over time, oldest first; the last `limit` points when given. */
    async viewSeries(videoRowIds: readonly string[], limit?: number) {
      if (videoRowIds.length === 0) return [];
      const ids = sql.join(videoRowIds.map((id) => sql`${id}::uuid`));
      const rows = await sql<{ video_row_id: string; taken_at: Date; view_count: number }>`
        select video_row_id, taken_at, view_count from (
          select video_row_id, taken_at, view_count,
            row_number() over (partition by video_row_id order by taken_at desc) as rank
          from analytics_video_snapshots where video_row_id in (${ids})
        ) ranked
        where ${limit === undefined ? sql`true` : sql`rank <= ${limit}`}
        order by video_row_id, taken_at
      `.execute(db);
      return rows.rows;
    },
  };
}
