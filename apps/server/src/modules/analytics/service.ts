import type {
  AnalyticsAccount,
  AnalyticsQuery,
  BestTimes,
  PostMetrics,
  PostMetricsList,
} from '@cadence/shared/schemas/analytics';
import { readBestTimes } from './best-times-report.ts';
import { exportCsv } from './csv-export.ts';
import { readOverview } from './overview.ts';
import { readPostMetrics, readPostMetricsList } from './post-metrics.ts';
import type { ReportContext } from './report-scope.ts';
import type { AnalyticsRepository } from './repository.ts';

/** The read side of analytics: the user's own history only, someone else's is a 404. */
export function createAnalyticsService(deps: {
  repository: AnalyticsRepository;
  now?: () => number;
}) {
  const { repository } = deps;
  const context: ReportContext = { repository, now: deps.now ?? Date.now };

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

    overview: (userId: string, query: AnalyticsQuery) => readOverview(context, userId, query),

    /** The period's table as CSV: one row per day, or one per video posted in the period. */
    exportCsv: (userId: string, query: AnalyticsQuery & { table: 'daily' | 'videos' }) =>
      exportCsv(context, userId, query),

    /** The heatmap and suggested slots of one account, or of all of them. */
    bestTimes: (
      userId: string,
      query: { accountId?: string | undefined; timeZone: string },
    ): Promise<BestTimes> => readBestTimes(context, userId, query),

    /** One post's metrics so far and its views over time; 404 unless the post is the user's. */
    postMetrics: (userId: string, postId: string): Promise<PostMetrics> =>
      readPostMetrics(repository, userId, postId),

    /** The user's posts among `postIds` that have synced videos: counts and a views sparkline. */
    postMetricsList: (userId: string, postIds: readonly string[]): Promise<PostMetricsList> =>
      readPostMetricsList(repository, userId, postIds),
  };
}

export type AnalyticsService = ReturnType<typeof createAnalyticsService>;
