import {
  analyticsOverviewSchema,
  type AnalyticsOverview,
  type AnalyticsPeriod,
} from '@cadence/shared/schemas/analytics';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** What the page asks for: an analytics account (null: all), a period, the browser's zone. */
export interface OverviewRequest {
  accountId: string | null;
  period: AnalyticsPeriod;
  from?: string | undefined;
  to?: string | undefined;
  timeZone: string;
  /** The latest sync the page knows of: a newer one makes the figures stale. */
  syncedAt?: string | undefined;
}

/** The query string of an overview or export request. */
export function overviewSearch(request: OverviewRequest): URLSearchParams {
  const query = new URLSearchParams({ period: request.period, timeZone: request.timeZone });
  if (request.accountId !== null) query.set('accountId', request.accountId);
  if (request.period === 'custom' && request.from && request.to) {
    query.set('from', request.from);
    query.set('to', request.to);
  }
  return query;
}

/** GET /api/analytics/overview — followers, daily gains, totals and top videos of a period. */
export async function getAnalyticsOverview(request: OverviewRequest): Promise<AnalyticsOverview> {
  return apiRequest(
    `/api/analytics/overview?${overviewSearch(request).toString()}`,
    analyticsOverviewSchema,
  );
}

export function getAnalyticsOverviewQueryOptions(request: OverviewRequest) {
  return queryOptions({
    queryKey: queryKeys.analytics.overview(request),
    queryFn: () => getAnalyticsOverview(request),
    // Switching period keeps the previous figures on screen until the new ones arrive.
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
}

export function useAnalyticsOverview(request: OverviewRequest) {
  return useQuery(getAnalyticsOverviewQueryOptions(request));
}
