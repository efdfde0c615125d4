import type { AnalyticsVideo } from '@cadence/shared/schemas/analytics';

export function engagementRate(views: number, likes: number, comments: number, shares: number) {
  return views > 0 ? (likes + comments + shares) / views : null;
}

/** A synced video as the API shows it. */
export function toVideo(row: {
  id: string;
  video_id: string;
  username: string;
  title: string;
  cover_image_url: string | null;
  share_url: string | null;
  posted_at: Date;
  view_count: number;
  like_count: number;
  comment_count: number;
  share_count: number;
  post_id: string | null;
}): AnalyticsVideo {
  return {
    id: row.id,
    videoId: row.video_id,
    accountUsername: row.username,
    title: row.title,
    coverImageUrl: row.cover_image_url,
    shareUrl: row.share_url,
    postedAt: row.posted_at.toISOString(),
    views: row.view_count,
    likes: row.like_count,
    comments: row.comment_count,
    shares: row.share_count,
    engagementRate: engagementRate(
      row.view_count,
      row.like_count,
      row.comment_count,
      row.share_count,
    ),
    postId: row.post_id,
  };
}
