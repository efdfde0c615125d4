import { dateFormatter } from '@cadence/shared/date-format';
import { analyticsPeriods, type AnalyticsPeriod } from '@cadence/shared/schemas/analytics';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { Alert } from '../../components/ui/alert.tsx';
import { Button, buttonClassName } from '../../components/ui/button.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { useAccounts } from '../../lib/accounts.ts';
import { useAnalyticsAccounts, useBestTimes } from '../../lib/analytics.ts';
import { useLanguage } from '../../lib/i18n.ts';
import { useTimeZone } from '../../lib/use-time-zone.ts';
import { overviewSearch, useAnalyticsOverview } from './api/get-analytics-overview.ts';
import { AnalyticsFilters, type FilterValue } from './components/analytics-filters.tsx';
import { BestTimesPanel } from './components/best-times-heatmap.tsx';
import { FollowersChart, InteractionsChart, ViewsChart } from './components/daily-charts.tsx';
import { SummaryCards } from './components/summary-cards.tsx';
import { TopVideos } from './components/top-videos.tsx';
import { formatDay } from './format.ts';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

function isPeriod(value: string | null): value is AnalyticsPeriod {
  return (analyticsPeriods as readonly (string | null)[]).includes(value);
}

/** The filters live in the URL (?account=…&period=…&from=…&to=…): shareable, kept on reload. */
function useFilters(): [FilterValue, (value: FilterValue) => void] {
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

/** 'Statistiques' (/analytics): the creator's TikTok figures over time and best times to post. */
export function AnalyticsPage() {
  const { t } = useTranslation();
  const { locale } = useLanguage();
  const { timeZone } = useTimeZone();
  const [filters, setFilters] = useFilters();
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

  if (accounts.isPending) {
    return (
      <div className="flex justify-center py-16">
        <Spinner />
      </div>
    );
  }
  if (accounts.isError) {
    return (
      <>
        <PageHeader title={t('analytics.title')} description={t('analytics.description')} />
        <Alert tone="error">{t('analytics.loadFailed')}</Alert>
        <Button variant="secondary" className="mt-4" onClick={() => void accounts.refetch()}>
          {t('analytics.retry')}
        </Button>
      </>
    );
  }
  if (known.length === 0 && anyConnected) {
    return (
      <>
        <PageHeader title={t('analytics.title')} description={t('analytics.description')} />
        <Alert tone="info">{t('analytics.syncPending')}</Alert>
      </>
    );
  }
  if (known.length === 0) {
    return (
      <>
        <PageHeader title={t('analytics.title')} description={t('analytics.description')} />
        <div className="rounded-xl bg-white p-8 text-center shadow-sm ring-1 ring-slate-200">
          <h2 className="text-lg font-semibold text-slate-900">{t('analytics.empty.title')}</h2>
          <p className="mx-auto mt-2 max-w-md text-slate-600">{t('analytics.empty.body')}</p>
          <Link to="/tiktok" className={buttonClassName('primary', 'mt-5')}>
            {t('analytics.empty.action')}
          </Link>
        </div>
      </>
    );
  }

  const data = overview.data;
  return (
    <>
      <PageHeader title={t('analytics.title')} description={t('analytics.description')} />
      <AnalyticsFilters
        accounts={known}
        value={{ ...filters, accountId }}
        onChange={setFilters}
        exportHref={exportHref}
      />
      <div className="mb-4 flex flex-wrap items-center justify-between gap-2 text-sm text-slate-600">
        {data && (
          <p>
            {t('analytics.period.range', {
              from: formatDay(data.range.from, locale, true),
              to: formatDay(data.range.to, locale, true),
            })}
          </p>
        )}
        {lastSynced ? (
          <p>
            {t('analytics.lastSynced', {
              date: dateFormatter(locale, {
                dateStyle: 'medium',
                timeStyle: 'short',
                timeZone,
              }).format(new Date(lastSynced)),
            })}
          </p>
        ) : (
          <p>{t('analytics.syncPending')}</p>
        )}
      </div>
      {overview.isError && <Alert tone="error">{t('analytics.loadFailed')}</Alert>}
      {!data ? (
        <div className="flex justify-center py-16">
          <Spinner />
        </div>
      ) : (
        <div className="flex flex-col gap-6" aria-busy={overview.isFetching}>
          <SummaryCards totals={data.totals} />
          <div className="grid min-w-0 gap-6 lg:grid-cols-2">
            <FollowersChart days={data.days} />
            <ViewsChart days={data.days} />
          </div>
          <InteractionsChart days={data.days} />
          <TopVideos videos={data.topVideos} />
          {bestTimes.data && <BestTimesPanel data={bestTimes.data} />}
        </div>
      )}
    </>
  );
}
