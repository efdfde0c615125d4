import type { PostMetrics, PostMetricsList } from '@cadence/shared/schemas/analytics';
import { AppError } from '../../lib/app-error.ts';
import type { AnalyticsRepository } from './repository.ts';
import { toVideo } from './video-view.ts';

const SPARKLINE_POINTS = 24;

/** One post's metrics so far and its views over time; 404 unless the post is the user's. */
export async function readPostMetrics(
  repository: AnalyticsRepository,
  userId: string,
  postId: string,
): Promise<PostMetrics> {
  const [row] = await repository.postsWithVideos(userId, [postId]);
  if (!row) throw new AppError('not_found', 'No such post');
  if (row.video_row_id === null || row.video_id === null || row.posted_at === null) {
    return { postId, video: null, series: [] };
  }
  const series = await repository.viewSeries([row.video_row_id]);
  return {
    postId,
    video: toVideo({
      id: row.video_row_id,
      video_id: row.video_id,
      username: row.username ?? '',
      title: row.title ?? '',
      cover_image_url: row.cover_image_url,
      share_url: row.share_url,
      posted_at: row.posted_at,
      view_count: row.view_count ?? 0,
      like_count: row.like_count ?? 0,
      comment_count: row.comment_count ?? 0,
      share_count: row.share_count ?? 0,
      post_id: postId,
    }),
    series: series.map((point) => ({
      at: point.taken_at.toISOString(),
      views: point.view_count,
    })),
  };
}

/** The user's posts among `postIds` that have synced videos: counts and a views sparkline. */
export async function readPostMetricsList(
  repository: AnalyticsRepository,
  userId: string,
  postIds: readonly string[],
): Promise<PostMetricsList> {
  const rows = (await repository.postsWithVideos(userId, postIds)).filter(
    (row): row is typeof row & { video_row_id: string } => row.video_row_id !== null,
  );
  const series = await repository.viewSeries(
    rows.map((row) => row.video_row_id),
    SPARKLINE_POINTS,
  );
  return {
    posts: rows.map((row) => ({
      postId: row.post_id,
      views: row.view_count ?? 0,
      likes: row.like_count ?? 0,
      comments: row.comment_count ?? 0,
      shares: row.share_count ?? 0,
      sparkline: series
        .filter((point) => point.video_row_id === row.video_row_id)
        .map((point) => point.view_count),
    })),
  };
}
