import type { Post } from '@cadence/shared/schemas/schedule';
import type { PostViewRow } from './repository.ts';

/** TikTok's public URL of a published video. */
export function tiktokPostUrl(username: string, postId: string): string {
  return `https://www.tiktok.com/@${encodeURIComponent(username)}/video/${encodeURIComponent(postId)}`;
}

/** Where the browser gets a video's thumbnail; null when it has none. */
export function thumbnailUrl(mediaId: string, thumbnailKey: string | null): string | null {
  return thumbnailKey ? `/api/media/${encodeURIComponent(mediaId)}/thumbnail` : null;
}

/** A post row as the API shows it (postSchema). */
export function toPost(row: PostViewRow): Post {
  return {
    id: row.id,
    scheduleId: row.schedule_id,
    accountId: row.account_id,
    accountUsername: row.account_username,
    mediaId: row.media_id,
    thumbnailUrl: thumbnailUrl(row.media_id, row.thumbnail_key),
    title: row.title,
    dueAt: row.due_at.toISOString(),
    randomized: row.randomized,
    jitterMinutes: row.jitter_minutes,
    status: row.status,
    failReason: row.status === 'failed' ? row.fail_reason : null,
    tiktokPostId: row.tiktok_post_id,
    tiktokPostUrl:
      row.tiktok_post_id === null ? null : tiktokPostUrl(row.account_username, row.tiktok_post_id),
    createdAt: row.created_at.toISOString(),
    timeZone: row.time_zone,
    privacyLevel: row.privacy_level,
    allowComment: row.allow_comment,
    allowDuet: row.allow_duet,
    allowStitch: row.allow_stitch,
    note: row.note,
    postponedFrom: row.postponed_from?.toISOString() ?? null,
  };
}
