import type { TikTokVideo, VideoField } from '../../tiktok/tiktok-user-data.ts';
import { nextSnapshotAt, viewsAt24h } from './snapshot-schedule.ts';
import type { SyncContext, SyncRun } from './sync-run.ts';
import type { ObservedVideo, VideoWrite } from './video-sync-queries.ts';

const HOUR = 3_600_000;
/** TikTok's page and batch size for video/list and video/query (docs/tiktok-display-api.md). */
export const DISPLAY_API_BATCH = 20;

const VIDEO_FIELDS: readonly VideoField[] = [
  'id',
  'create_time',
  'title',
  'cover_image_url',
  'share_url',
  'duration',
  'view_count',
  'like_count',
  'comment_count',
  'share_count',
];

function observed(video: TikTokVideo): ObservedVideo | null {
  if (video.id === undefined || video.createTime === undefined) return null;
  return {
    videoId: video.id,
    postedAt: new Date(video.createTime * 1000),
    title: video.title ?? video.videoDescription ?? '',
    coverImageUrl: video.coverImageUrl ?? null,
    shareUrl: video.shareUrl ?? null,
    duration: video.duration ?? null,
    viewCount: video.viewCount ?? 0,
    likeCount: video.likeCount ?? 0,
    commentCount: video.commentCount ?? 0,
    shareCount: video.shareCount ?? 0,
  };
}

/** Compares what TikTok says now with what the account had, video by video. */
async function plan(
  context: SyncContext,
  analyticsAccountId: string,
  videos: readonly ObservedVideo[],
  at: Date,
): Promise<VideoWrite[]> {
  const known = new Map(
    (
      await context.repository.videosByIds(
        analyticsAccountId,
        videos.map((video) => video.videoId),
      )
    ).map((row) => [row.video_id, row]),
  );
  return videos.map((video) => {
    const previous = known.get(video.videoId);
    const changed =
      previous === undefined ||
      previous.view_count !== video.viewCount ||
      previous.like_count !== video.likeCount ||
      previous.comment_count !== video.commentCount ||
      previous.share_count !== video.shareCount;
    const before =
      previous?.last_snapshot_at == null
        ? null
        : { at: previous.last_snapshot_at, views: previous.view_count };
    return {
      ...video,
      viewsAt24h:
        previous?.views_at_24h ??
        viewsAt24h(video.postedAt, before, { at, views: video.viewCount }),
      nextSnapshotAt: nextSnapshotAt(video.postedAt, at),
      snapshot: changed,
    };
  });
}

/**
 * New videos: lists from the newest (or from where a dead run stopped) down to the newest video
 * the last finished pass saw. Each page carries the counts of the videos it lists.
 */
export async function listNewVideos(context: SyncContext, run: SyncRun): Promise<void> {
  const { repository, tiktok, now } = context;
  const { claimed } = run;
  const knownNewest = claimed.known_newest;
  let passNewest = claimed.list_pass_newest;
  let cursor = claimed.list_cursor ?? undefined;
  for (;;) {
    const page = await run.caller.call('video_list', (token) =>
      tiktok.listVideos(
        token,
        {
          fields: VIDEO_FIELDS,
          maxCount: DISPLAY_API_BATCH,
          ...(cursor !== undefined && { cursor }),
        },
        { signal: run.signal },
      ),
    );
    const at = new Date(now());
    const seen = page.videos.flatMap((video) => observed(video) ?? []);
    const newestSeconds = (video: ObservedVideo) => Math.floor(video.postedAt.getTime() / 1000);
    const first = seen[0];
    if (passNewest === null && first) passNewest = newestSeconds(first);
    const reachedKnown =
      knownNewest !== null && seen.some((video) => newestSeconds(video) <= knownNewest);
    const done = reachedKnown || !page.hasMore || seen.length === 0;
    const writes = await plan(context, claimed.id, seen, at);
    run.videos += writes.length;
    await repository.writeVideos(
      run.target,
      run.lease,
      at,
      writes,
      done
        ? {
            cursor: null,
            passNewest: null,
            knownNewest: Math.max(knownNewest ?? 0, passNewest ?? 0),
          }
        : { cursor: page.cursor, passNewest },
    );
    if (done) break;
    cursor = page.cursor;
  }
}

/** Known videos whose snapshot is due and that the listing did not just refresh. */
export async function refreshDueVideos(context: SyncContext, run: SyncRun): Promise<void> {
  const { repository, tiktok, now } = context;
  const { claimed } = run;
  for (;;) {
    const due = await repository.dueVideoIds(
      claimed.id,
      new Date(now()),
      run.runStart,
      DISPLAY_API_BATCH * 25,
    );
    if (due.length === 0) break;
    for (let index = 0; index < due.length; index += DISPLAY_API_BATCH) {
      const batch = due.slice(index, index + DISPLAY_API_BATCH);
      const found = await run.caller.call('video_query', (token) =>
        tiktok.queryVideos(
          token,
          { fields: VIDEO_FIELDS, videoIds: batch },
          { signal: run.signal },
        ),
      );
      const at = new Date(now());
      const seen = found.flatMap((video) => observed(video) ?? []);
      const writes = await plan(context, claimed.id, seen, at);
      run.videos += writes.length;
      await repository.writeVideos(run.target, run.lease, at, writes);
      const returned = new Set(seen.map((video) => video.videoId));
      // Deleted or made private: TikTok leaves it out. Its history stays; ask again tomorrow.
      await repository.deferVideos(
        claimed.id,
        batch.filter((id) => !returned.has(id)),
        new Date(at.getTime() + 24 * HOUR),
      );
    }
  }
}
