import { useAccounts } from '../../../lib/accounts.ts';
import { useAnalyticsAccounts, useBestTimes } from '../../../lib/analytics.ts';
import { useTimeZone } from '../../../lib/use-time-zone.ts';
import { overviewSearch, useAnalyticsOverview } from '../api/get-analytics-overview.ts';
import type { FilterValue } from '../components/analytics-filters.tsx';

/**
 * What the page shows for the chosen filters: the accounts with figures, the one chosen (null for
 * all, or when the URL names an unknown one), when they were last synced, the overview, the best
 * times and the CSV export links. The overview is asked for at once, beside the accounts.
 */
export function useAnalyticsView(filters: FilterValue) {
  const { timeZone } = useTimeZone();
  const cards = useAccounts();
  const anyConnected = (cards.data ?? []).some((card) => card.status === 'connected');
  const accounts = useAnalyticsAccounts({ waitForFirst: anyConnected });
  const known = accounts.data ?? [];
  const accountId =
    filters.accountId !== null && known.some((account) => account.id === filters.accountId)
      ? filters.accountId
      : null;
  // A custom period shows once both dates are chosen; until then, the last 28 days.
  const period =
    filters.period === 'custom' && !(filters.from && filters.to) ? '28d' : filters.period;
  const selected = known.find((account) => account.id === accountId);
  const lastSynced = (selected ? [selected] : known)
    .map((account) => account.lastSyncedAt)
    .filter((value): value is string => value !== null)
    .sort()
    .at(-1);
  const request = {
    accountId,
    period,
    from: filters.from,
    to: filters.to,
    timeZone,
    syncedAt: lastSynced,
  };
  const overview = useAnalyticsOverview(request);
  const bestTimes = useBestTimes(accountId, timeZone, {
    enabled: known.length > 0,
    syncedAt: lastSynced,
  });
  const exportHref = (table: 'daily' | 'videos') => {
    const query = overviewSearch(request);
    query.set('table', table);
    return `/api/analytics/export.csv?${query.toString()}`;
  };
  return {
    accounts,
    anyConnected,
    known,
    accountId,
    lastSynced,
    timeZone,
    overview,
    bestTimes,
    exportHref,
  };
}
