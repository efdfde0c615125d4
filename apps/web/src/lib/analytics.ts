import {
  analyticsAccountListSchema,
  bestTimesSchema,
  type AnalyticsAccount,
  postMetricsListSchema,
  type BestTimes,
  type PostMetricsList,
} from '@cadence/shared/schemas/analytics';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from './api-client.ts';
import { queryKeys } from './query-keys.ts';

// Analytics read by more than the analytics page (the scheduler's suggested slot, the queue's
// per-post metrics): one definition here, shared by the features and components/analytics/.

/** GET /api/analytics/best-times — one account's (or all accounts') heatmap and slots. */
export async function getBestTimes(accountId: string | null, timeZone: string): Promise<BestTimes> {
  const query = new URLSearchParams({ timeZone });
  if (accountId !== null) query.set('accountId', accountId);
  return apiRequest(`/api/analytics/best-times?${query.toString()}`, bestTimesSchema);
}

export function getBestTimesQueryOptions(
  accountId: string | null,
  timeZone: string,
  syncedAt?: string,
) {
  return queryOptions({
    // With the latest sync in the key, new figures mean a new answer.
    queryKey: [...queryKeys.analytics.bestTimes(accountId, timeZone), syncedAt ?? null],
    queryFn: () => getBestTimes(accountId, timeZone),
    // Learned from videos synced hourly at most: no need to ask more often.
    staleTime: 5 * 60_000,
  });
}

export function useBestTimes(
  accountId: string | null,
  timeZone: string,
  options: { enabled?: boolean; syncedAt?: string | undefined } = {},
) {
  const { syncedAt, ...rest } = options;
  return useQuery({ ...getBestTimesQueryOptions(accountId, timeZone, syncedAt), ...rest });
}

/** GET /api/analytics/accounts — the TikTok users whose history Cadence keeps for this user. */
export async function getAnalyticsAccounts(): Promise<AnalyticsAccount[]> {
  return (await apiRequest('/api/analytics/accounts', analyticsAccountListSchema)).accounts;
}

/**
 * `waitForFirst`: the user has a connected account, so an empty list means its first sync is on
 * its way. While a first sync is under way, the list is read again every 3 s until it lands.
 */
export function getAnalyticsAccountsQueryOptions(waitForFirst = false) {
  return queryOptions({
    queryKey: queryKeys.analytics.accounts,
    queryFn: getAnalyticsAccounts,
    staleTime: 60_000,
    refetchInterval: (query) => {
      const accounts = query.state.data;
      if (accounts === undefined) return false;
      const syncing =
        (waitForFirst && accounts.length === 0) ||
        accounts.some((account) => account.connected && account.lastSyncedAt === null);
      return syncing ? 3000 : false;
    },
  });
}

export function useAnalyticsAccounts(options: { enabled?: boolean; waitForFirst?: boolean } = {}) {
  const { waitForFirst = false, ...rest } = options;
  return useQuery({ ...getAnalyticsAccountsQueryOptions(waitForFirst), ...rest });
}

/** GET /api/analytics/posts?ids=… — metrics and a views sparkline per post (100 at most). */
export async function getPostMetrics(postIds: readonly string[]): Promise<PostMetricsList> {
  return apiRequest(
    `/api/analytics/posts?ids=${encodeURIComponent(postIds.join(','))}`,
    postMetricsListSchema,
  );
}

export function getPostMetricsQueryOptions(postIds: readonly string[]) {
  return queryOptions({
    queryKey: queryKeys.analytics.posts(postIds),
    queryFn: () => getPostMetrics(postIds),
    enabled: postIds.length > 0,
    staleTime: 5 * 60_000,
  });
}

/** Metrics of up to 100 posts at once (e.g. the completed posts of the history list). */
export function usePostMetrics(postIds: readonly string[]) {
  return useQuery(getPostMetricsQueryOptions(postIds.slice(0, 100)));
}
