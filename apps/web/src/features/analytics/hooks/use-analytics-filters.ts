import { analyticsPeriods, type AnalyticsPeriod } from '@cadence/shared/schemas/analytics';
import { useSearchParams } from 'react-router';
import type { FilterValue } from '../components/analytics-filters.tsx';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

function isPeriod(value: string | null): value is AnalyticsPeriod {
  return (analyticsPeriods as readonly (string | null)[]).includes(value);
}

/** The filters live in the URL (?account=…&period=…&from=…&to=…): shareable, kept on reload. */
export function useAnalyticsFilters(): [FilterValue, (value: FilterValue) => void] {
  const [params, setParams] = useSearchParams();
  const period = params.get('period');
  const from = params.get('from');
  const to = params.get('to');
  const value: FilterValue = {
    accountId: params.get('account'),
    period: isPeriod(period) ? period : '28d',
    from: from !== null && DATE.test(from) ? from : undefined,
    to: to !== null && DATE.test(to) ? to : undefined,
  };
  const set = (next: FilterValue) => {
    const query = new URLSearchParams();
    if (next.accountId !== null) query.set('account', next.accountId);
    query.set('period', next.period);
    if (next.period === 'custom' && next.from && next.to) {
      query.set('from', next.from);
      query.set('to', next.to);
    }
    setParams(query, { replace: true });
  };
  return [value, set];
}
