import type { Post } from '@cadence/shared/schemas/schedule';
import type { PostViewRow } from './post-view-queries.ts';

/**
 * The page of a published video: `{webBase}/@username/video/id`, where webBase is TikTok's web
 * origin (config.tiktok.authBase, https://www.tiktok.com) or, in sandbox mode, the sandbox, which
 * serves the same address shape (a sandbox id exists nowhere on tiktok.com).
 */
export function tiktokPostUrl(webBase: string, username: string, postId: string): string {
  return `${webBase}/@${encodeURIComponent(username)}/video/${encodeURIComponent(postId)}`;
}

/** Where the browser gets a video's thumbnail; null when it has none. */
export function thumbnailUrl(mediaId: string, thumbnailKey: string | null): string | null {
  return thumbnailKey ? `/api/media/${encodeURIComponent(mediaId)}/thumbnail` : null;
}

/** Turns a post row into what the API shows (postSchema). */
export type PostViewer = (row: PostViewRow) => Post;

/** The post view of a deployment whose TikTok video pages are under `tiktokWebBase`. */
export function postViewer(tiktokWebBase: string): PostViewer {
  return (row) => ({
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
      row.tiktok_post_id === null
        ? null
        : tiktokPostUrl(tiktokWebBase, row.account_username, row.tiktok_post_id),
    createdAt: row.created_at.toISOString(),
    timeZone: row.time_zone,
    privacyLevel: row.privacy_level,
    delivery: row.delivery,
    allowComment: row.allow_comment,
    allowDuet: row.allow_duet,
    allowStitch: row.allow_stitch,
    note: row.note,
    postponedFrom: row.postponed_from?.toISOString() ?? null,
    outcomeAt: row.outcome_at?.toISOString() ?? null,
  });
}
