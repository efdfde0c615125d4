import type { AnalyticsQuery } from '@cadence/shared/schemas/analytics';
import { toCsv } from './csv.ts';
import { readOverview } from './overview.ts';
import { accountIdsFor, rangeOf, type ReportContext } from './report-scope.ts';
import { engagementRate, toVideo } from './video-view.ts';

/** One row per video posted in the period. */
async function videosCsv(context: ReportContext, userId: string, query: AnalyticsQuery) {
  const accountIds = await accountIdsFor(context.repository, userId, query.accountId);
  const range = rangeOf(query, context.now());
  const videos = (
    await context.repository.videosPostedBetween(accountIds, range.fromUtc, range.toUtc, 10_000)
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

/** One row per day of the period. */
async function dailyCsv(context: ReportContext, userId: string, query: AnalyticsQuery) {
  const data = await readOverview(context, userId, query);
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
}

/** The period's table as CSV: one row per day, or one per video posted in the period. */
export async function exportCsv(
  context: ReportContext,
  userId: string,
  query: AnalyticsQuery & { table: 'daily' | 'videos' },
) {
  return query.table === 'videos'
    ? videosCsv(context, userId, query)
    : dailyCsv(context, userId, query);
}
