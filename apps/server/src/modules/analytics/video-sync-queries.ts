import { sql, type Kysely } from 'kysely';
import type { Lease } from '../../db/lease.ts';
import type { Database } from '../../db/schema.ts';
import { renewLeaseOrThrow } from './sync-run-queries.ts';
import './db-types.ts';

/** Counts as TikTok reports them for one video at one moment. */
export interface VideoCounts {
  viewCount: number;
  likeCount: number;
  commentCount: number;
  shareCount: number;
}

/** One video as the sync writes it (from video/list or video/query). */
export interface ObservedVideo extends VideoCounts {
  videoId: string;
  postedAt: Date;
  title: string;
  coverImageUrl: string | null;
  shareUrl: string | null;
  duration: number | null;
}

/** What the sync writes for one video after comparing with what it had. */
export interface VideoWrite extends ObservedVideo {
  viewsAt24h: number | null;
  nextSnapshotAt: Date;
  /** A snapshot row is added only when the counts changed (or for a new video). */
  snapshot: boolean;
}

/** Where a page of videos goes, and how far the listing got. */
type SyncTarget = { id: string; userId: string };
type ListingProgress = { cursor: number | null; passNewest: number | null; knownNewest?: number };

/** Inserts or refreshes the videos; returns each video's row id by TikTok video id. */
async function upsertVideos(
  trx: Kysely<Database>,
  account: SyncTarget,
  takenAt: Date,
  videos: readonly VideoWrite[],
): Promise<Map<string, string>> {
  const rows = await trx
    .insertInto('analytics_videos')
    .values(
      videos.map((video) => ({
        analytics_account_id: account.id,
        user_id: account.userId,
        video_id: video.videoId,
        title: video.title,
        cover_image_url: video.coverImageUrl,
        share_url: video.shareUrl,
        duration: video.duration,
        posted_at: video.postedAt,
        view_count: video.viewCount,
        like_count: video.likeCount,
        comment_count: video.commentCount,
        share_count: video.shareCount,
        views_at_24h: video.viewsAt24h,
        last_snapshot_at: takenAt,
        next_snapshot_at: video.nextSnapshotAt,
      })),
    )
    .onConflict((conflict) =>
      conflict.columns(['analytics_account_id', 'video_id']).doUpdateSet((eb) => ({
        title: eb.ref('excluded.title'),
        cover_image_url: eb.ref('excluded.cover_image_url'),
        share_url: eb.ref('excluded.share_url'),
        duration: eb.ref('excluded.duration'),
        view_count: eb.ref('excluded.view_count'),
        like_count: eb.ref('excluded.like_count'),
        comment_count: eb.ref('excluded.comment_count'),
        share_count: eb.ref('excluded.share_count'),
        views_at_24h: eb.ref('excluded.views_at_24h'),
        last_snapshot_at: eb.ref('excluded.last_snapshot_at'),
        next_snapshot_at: eb.ref('excluded.next_snapshot_at'),
      })),
    )
    .returning(['id', 'video_id'])
    .execute();
  return new Map(rows.map((row) => [row.video_id, row.id]));
}

/** A snapshot row for each video whose counts changed (or that is new). */
async function insertSnapshots(
  trx: Kysely<Database>,
  rowIds: Map<string, string>,
  takenAt: Date,
  videos: readonly VideoWrite[],
): Promise<void> {
  const snapshots = videos.flatMap((video) => {
    const rowId = rowIds.get(video.videoId);
    if (!video.snapshot || rowId === undefined) return [];
    return [
      {
        video_row_id: rowId,
        taken_at: takenAt,
        view_count: video.viewCount,
        like_count: video.likeCount,
        comment_count: video.commentCount,
        share_count: video.shareCount,
      },
    ];
  });
  if (snapshots.length === 0) return;
  await trx
    .insertInto('analytics_video_snapshots')
    .values(snapshots)
    .onConflict((conflict) => conflict.columns(['video_row_id', 'taken_at']).doNothing())
    .execute();
}

async function saveListingProgress(
  trx: Kysely<Database>,
  accountId: string,
  progress: ListingProgress,
): Promise<void> {
  await trx
    .updateTable('analytics_accounts')
    .set({
      list_cursor: progress.cursor,
      list_pass_newest: progress.passNewest,
      ...(progress.knownNewest !== undefined && { known_newest: progress.knownNewest }),
    })
    .where('id', '=', accountId)
    .execute();
}

/** The sync's reads and writes of an account's videos and their snapshots. */
export function createVideoSyncQueries(db: Kysely<Database>) {
  return {
    /** The account's videos among `videoIds`, to compare what TikTok says now with what we had. */
    async videosByIds(accountId: string, videoIds: readonly string[]) {
      if (videoIds.length === 0) return [];
      return db
        .selectFrom('analytics_videos')
        .select([
          'video_id',
          'posted_at',
          'view_count',
          'like_count',
          'comment_count',
          'share_count',
          'views_at_24h',
          'last_snapshot_at',
        ])
        .where('analytics_account_id', '=', accountId)
        .where('video_id', 'in', videoIds)
        .execute();
    },

    /**
     * Writes a page of videos (and their snapshots) and the listing progress in one transaction,
     * renewing the lease; throws AnalyticsLeaseLostError when the run no longer holds it.
     */
    async writeVideos(
      account: SyncTarget,
      lease: Lease,
      takenAt: Date,
      videos: readonly VideoWrite[],
      progress?: ListingProgress,
    ): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await renewLeaseOrThrow(trx, account.id, lease);
        if (videos.length > 0) {
          const rowIds = await upsertVideos(trx, account, takenAt, videos);
          await insertSnapshots(trx, rowIds, takenAt, videos);
        }
        if (progress) await saveListingProgress(trx, account.id, progress);
      });
    },

    /** Videos whose next snapshot is due and that this run has not observed yet. */
    async dueVideoIds(accountId: string, now: Date, observedBefore: Date, limit: number) {
      const rows = await db
        .selectFrom('analytics_videos')
        .select('video_id')
        .where('analytics_account_id', '=', accountId)
        .where('next_snapshot_at', '<=', now)
        .where((eb) =>
          eb.or([eb('last_snapshot_at', 'is', null), eb('last_snapshot_at', '<', observedBefore)]),
        )
        .orderBy('next_snapshot_at')
        .limit(limit)
        .execute();
      return rows.map((row) => row.video_id);
    },

    /** Videos TikTok no longer returns (deleted, made private): asked about again later. */
    async deferVideos(accountId: string, videoIds: readonly string[], until: Date) {
      if (videoIds.length === 0) return;
      await db
        .updateTable('analytics_videos')
        .set({ next_snapshot_at: until })
        .where('analytics_account_id', '=', accountId)
        .where('video_id', 'in', videoIds)
        .execute();
    },

    /** Links the account's videos to the Cadence posts that published them (ids may come late). */
    async linkPosts(accountId: string, userId: string): Promise<number> {
      const result = await sql`
        update analytics_videos v set post_id = p.id
        from posts p
        where v.analytics_account_id = ${accountId} and v.post_id is null
          and p.user_id = ${userId} and p.tiktok_post_id = v.video_id
      `.execute(db);
      return Number(result.numAffectedRows ?? 0n);
    },
  };
}
