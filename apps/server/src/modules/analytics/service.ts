import {
  analyseBestTimes,
  median,
  nextSlotOccurrence,
  zonedSlot,
  type BestTimeObservation,
} from '@cadence/shared/analytics/best-times';
import type {
  AnalyticsAccount,
  AnalyticsDay,
  AnalyticsOverview,
  AnalyticsQuery,
  AnalyticsVideo,
  BestTimes,
  PostMetrics,
  PostMetricsList,
} from '@cadence/shared/schemas/analytics';
import { zonedDateTimeToUtc } from '@cadence/shared/schedule/planner';
import { AppError } from '../../lib/app-error.ts';
import { toCsv } from './csv.ts';
import type { AnalyticsRepository } from './repository.ts';

const DAY = 86_400_000;
/** A video first seen after its 24th hour counts for best times once it is a week old. */
const SETTLED_AFTER_MS = 7 * DAY;
const TOP_VIDEOS = 10;
const SPARKLINE_POINTS = 24;

function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);
}

function dayCount(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY) + 1;
}

function engagementRate(views: number, likes: number, comments: number, shares: number) {
  return views > 0 ? (likes + comments + shares) / views : null;
}

interface Totals {
  followers: number | null;
  views: number;
  likes: number;
  comments: number;
  shares: number;
}

/** The read side of analytics: the user's own history only, someone else's is a 404. */
export function createAnalyticsService(deps: {
  repository: AnalyticsRepository;
  now?: () => number;
}) {
  const { repository } = deps;
  const now = deps.now ?? Date.now;

  /** The user's analytics accounts to read: one (404 unless theirs) or all of them. */
  async function accountIdsFor(userId: string, accountId: string | undefined): Promise<string[]> {
    const accounts = await repository.accountIdsOfUser(userId);
    if (accountId === undefined) return accounts;
    if (!accounts.includes(accountId)) {
      throw new AppError('not_found', 'No such analytics account');
    }
    return [accountId];
  }

  function rangeOf(query: AnalyticsQuery) {
    const today = zonedSlot(now(), query.timeZone).date;
    const span = query.period === '7d' ? 7 : query.period === '90d' ? 90 : 28;
    const from = query.period === 'custom' && query.from ? query.from : addDays(today, 1 - span);
    const to = query.period === 'custom' && query.to ? query.to : today;
    return {
      from,
      to,
      days: dayCount(from, to),
      fromUtc: zonedDateTimeToUtc(from, '00:00', query.timeZone),
      toUtc: zonedDateTimeToUtc(addDays(to, 1), '00:00', query.timeZone),
    };
  }

  function toVideo(row: {
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

  /**
   * Day by day: followers at the end of the day and what views, likes, comments and shares
   * grew by, summed over the accounts. An account with no reading on a day keeps its last one.
   */
  async function dailySeries(
    accountIds: string[],
    range: ReturnType<typeof rangeOf>,
    timeZone: string,
  ): Promise<{ days: AnalyticsDay[]; start: Totals | null; end: Totals | null }> {
    const [{ days: rows, baselines }, posted] = await Promise.all([
      repository.dailySnapshots(accountIds, range.fromUtc, range.toUtc, timeZone),
      repository.videosPostedPerDay(accountIds, range.fromUtc, range.toUtc, timeZone),
    ]);
    const postedOn = new Map(posted.map((row) => [row.day, row]));
    const byAccount = new Map<string, Map<string, Totals>>();
    for (const row of rows) {
      const days = byAccount.get(row.analytics_account_id) ?? new Map<string, Totals>();
      days.set(row.day, {
        followers: row.follower_count,
        views: row.view_total,
        likes: row.like_total,
        comments: row.comment_total,
        shares: row.share_total,
      });
      byAccount.set(row.analytics_account_id, days);
    }
    const last = new Map<string, Totals>();
    for (const row of baselines) {
      last.set(row.analytics_account_id, {
        followers: row.follower_count,
        views: row.view_total,
        likes: row.like_total,
        comments: row.comment_total,
        shares: row.share_total,
      });
    }
    const sum = (): Totals | null => {
      if (last.size === 0) return null;
      const values = [...last.values()];
      const followers = values.map((value) => value.followers);
      return {
        followers: followers.some((value) => value === null)
          ? null
          : followers.reduce<number>((total, value) => total + (value ?? 0), 0),
        views: values.reduce((total, value) => total + value.views, 0),
        likes: values.reduce((total, value) => total + value.likes, 0),
        comments: values.reduce((total, value) => total + value.comments, 0),
        shares: values.reduce((total, value) => total + value.shares, 0),
      };
    };
    const start = sum();
    let previous = start;
    const days: AnalyticsDay[] = [];
    for (let index = 0; index < range.days; index++) {
      const date = addDays(range.from, index);
      for (const accountId of accountIds) {
        const reading = byAccount.get(accountId)?.get(date);
        if (reading) last.set(accountId, reading);
      }
      const current = sum();
      // Before an account's first reading there is nothing to gain from: the first day counts 0.
      const base = previous ?? current;
      days.push({
        date,
        followers: current?.followers ?? null,
        views: Math.max(0, (current?.views ?? 0) - (base?.views ?? 0)),
        likes: Math.max(0, (current?.likes ?? 0) - (base?.likes ?? 0)),
        comments: Math.max(0, (current?.comments ?? 0) - (base?.comments ?? 0)),
        shares: Math.max(0, (current?.shares ?? 0) - (base?.shares ?? 0)),
        postedVideos: postedOn.get(date)?.videos ?? 0,
        postedVideoViews: postedOn.get(date)?.views ?? 0,
      });
      previous = current;
    }
    return { days, start, end: previous };
  }

  async function overview(userId: string, query: AnalyticsQuery): Promise<AnalyticsOverview> {
    const accountIds = await accountIdsFor(userId, query.accountId);
    const range = rangeOf(query);
    const [series, top, videosPosted] = await Promise.all([
      dailySeries(accountIds, range, query.timeZone),
      repository.videosPostedBetween(accountIds, range.fromUtc, range.toUtc, TOP_VIDEOS),
      repository.countVideosPostedBetween(accountIds, range.fromUtc, range.toUtc),
    ]);
    const gained = series.days.reduce(
      (total, day) => ({
        views: total.views + day.views,
        likes: total.likes + day.likes,
        comments: total.comments + day.comments,
        shares: total.shares + day.shares,
      }),
      { views: 0, likes: 0, comments: 0, shares: 0 },
    );
    const firstFollowers =
      series.start?.followers ??
      series.days.find((day) => day.followers !== null)?.followers ??
      null;
    const endFollowers = series.end?.followers ?? null;
    return {
      range: { from: range.from, to: range.to, days: range.days },
      totals: {
        followers: endFollowers,
        followersChange:
          endFollowers === null || firstFollowers === null ? null : endFollowers - firstFollowers,
        ...gained,
        engagementRate: engagementRate(gained.views, gained.likes, gained.comments, gained.shares),
        videosPosted,
      },
      days: series.days,
      topVideos: top.map(toVideo),
    };
  }

  return {
    async accounts(userId: string): Promise<AnalyticsAccount[]> {
      const rows = await repository.accountsOfUser(userId);
      return rows.map((row) => ({
        id: row.id,
        username: row.username,
        displayName: row.display_name,
        avatarUrl: row.avatar_url,
        accountId: row.account_id,
        connected: row.account_id !== null && row.status === 'connected',
        videoCount: row.video_count,
        lastSyncedAt: row.last_synced_at?.toISOString() ?? null,
      }));
    },

    overview,

    /** The period's table as CSV: one row per day, or one per video posted in the period. */
    async exportCsv(userId: string, query: AnalyticsQuery & { table: 'daily' | 'videos' }) {
      if (query.table === 'videos') {
        const accountIds = await accountIdsFor(userId, query.accountId);
        const range = rangeOf(query);
        const videos = (
          await repository.videosPostedBetween(accountIds, range.fromUtc, range.toUtc, 10_000)
        ).map(toVideo);
        return toCsv(
          [
            'posted_at',
            'account',
            'video_id',
            'title',
            'views',
            'likes',
            'comments',
            'shares',
            'engagement_rate',
            'url',
          ],
          videos.map((video) => [
            video.postedAt,
            video.accountUsername,
            video.videoId,
            video.title,
            video.views,
            video.likes,
            video.comments,
            video.shares,
            video.engagementRate === null ? null : Number(video.engagementRate.toFixed(4)),
            video.shareUrl,
          ]),
        );
      }
      const data = await overview(userId, query);
      return toCsv(
        [
          'date',
          'followers',
          'views',
          'likes',
          'comments',
          'shares',
          'engagement_rate',
          'videos_posted',
          'views_of_videos_posted',
        ],
        data.days.map((day) => {
          const rate = engagementRate(day.views, day.likes, day.comments, day.shares);
          return [
            day.date,
            day.followers,
            day.views,
            day.likes,
            day.comments,
            day.shares,
            rate === null ? null : Number(rate.toFixed(4)),
            day.postedVideos,
            day.postedVideoViews,
          ];
        }),
      );
    },

    /**
     * The heatmap and suggested slots of one account, or of all of them (each video then
     * compared with its own account's median first).
     */
    async bestTimes(
      userId: string,
      query: { accountId?: string | undefined; timeZone: string },
    ): Promise<BestTimes> {
      const accountIds = await accountIdsFor(userId, query.accountId);
      const rows = await repository.bestTimeInputs(accountIds);
      const at = now();
      const raw = rows.flatMap((row): (BestTimeObservation & { account: string })[] => {
        if (row.views_at_24h !== null) {
          return [
            {
              account: row.analytics_account_id,
              postedAt: row.posted_at.getTime(),
              views: row.views_at_24h,
              basis: '24h',
            },
          ];
        }
        const seenAt = row.last_snapshot_at?.getTime() ?? 0;
        const firstSeenAge = row.first_seen_at.getTime() - row.posted_at.getTime();
        // History first seen after its 24th hour: its views once settled (a week old).
        if (firstSeenAge >= DAY && seenAt - row.posted_at.getTime() >= SETTLED_AFTER_MS) {
          return [
            {
              account: row.analytics_account_id,
              postedAt: row.posted_at.getTime(),
              views: row.view_count,
              basis: 'settled',
            },
          ];
        }
        return [];
      });
      let observations: BestTimeObservation[] = raw;
      if (accountIds.length > 1) {
        // Accounts of different sizes: each video relative to its account's median of its kind.
        const medians = new Map<string, number>();
        for (const key of new Set(raw.map((item) => `${item.account}|${item.basis}`))) {
          medians.set(
            key,
            median(
              raw
                .filter((item) => `${item.account}|${item.basis}` === key)
                .map((item) => item.views),
            ),
          );
        }
        observations = raw.map((item) => ({
          postedAt: item.postedAt,
          views:
            (1000 * (item.views + 1)) / ((medians.get(`${item.account}|${item.basis}`) ?? 0) + 1),
          basis: item.basis,
        }));
      }
      const result = analyseBestTimes(observations, query.timeZone);
      return {
        status: result.status,
        videosAnalysed: result.videosAnalysed,
        minimumVideos: result.minimumVideos,
        timeZone: query.timeZone,
        cells: result.cells,
        slots: result.slots.map((slot) => ({
          ...slot,
          nextAt: nextSlotOccurrence(slot, at, query.timeZone).toISOString(),
        })),
      };
    },

    /** One post's metrics so far and its views over time; 404 unless the post is the user's. */
    async postMetrics(userId: string, postId: string): Promise<PostMetrics> {
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
    },

    /** The user's posts among `postIds` that have synced videos: counts and a views sparkline. */
    async postMetricsList(userId: string, postIds: readonly string[]): Promise<PostMetricsList> {
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
    },
  };
}

export type AnalyticsService = ReturnType<typeof createAnalyticsService>;
