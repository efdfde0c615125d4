import type {
  AnalyticsDay,
  AnalyticsOverview,
  AnalyticsQuery,
} from '@cadence/shared/schemas/analytics';
import type { AnalyticsRepository } from './repository.ts';
import {
  accountIdsFor,
  addDays,
  rangeOf,
  type ReportContext,
  type ReportRange,
} from './report-scope.ts';
import { engagementRate, toVideo } from './video-view.ts';

const TOP_VIDEOS = 10;

interface Totals {
  followers: number | null;
  views: number;
  likes: number;
  comments: number;
  shares: number;
}

/** The sum over accounts of each one's last reading; null before any account has one. */
function sumOf(last: Map<string, Totals>): Totals | null {
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
}

function totalsOf(row: {
  follower_count: number | null;
  view_total: number;
  like_total: number;
  comment_total: number;
  share_total: number;
}): Totals {
  return {
    followers: row.follower_count,
    views: row.view_total,
    likes: row.like_total,
    comments: row.comment_total,
    shares: row.share_total,
  };
}

/**
 * Day by day: followers at the end of the day and what views, likes, comments and shares
 * grew by, summed over the accounts. An account with no reading on a day keeps its last one.
 */
async function dailySeries(
  repository: AnalyticsRepository,
  accountIds: string[],
  range: ReportRange,
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
    days.set(row.day, totalsOf(row));
    byAccount.set(row.analytics_account_id, days);
  }
  const last = new Map<string, Totals>();
  for (const row of baselines) last.set(row.analytics_account_id, totalsOf(row));
  const start = sumOf(last);
  let previous = start;
  const days: AnalyticsDay[] = [];
  for (let index = 0; index < range.days; index++) {
    const date = addDays(range.from, index);
    for (const accountId of accountIds) {
      const reading = byAccount.get(accountId)?.get(date);
      if (reading) last.set(accountId, reading);
    }
    const current = sumOf(last);
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

/** The period's totals, its days and its most viewed videos, for one account or all of them. */
export async function readOverview(
  context: ReportContext,
  userId: string,
  query: AnalyticsQuery,
): Promise<AnalyticsOverview> {
  const { repository } = context;
  const accountIds = await accountIdsFor(repository, userId, query.accountId);
  const range = rangeOf(query, context.now());
  const [series, top, videosPosted] = await Promise.all([
    dailySeries(repository, accountIds, range, query.timeZone),
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
    series.start?.followers ?? series.days.find((day) => day.followers !== null)?.followers ?? null;
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
