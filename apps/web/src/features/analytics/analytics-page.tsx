import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Alert } from '../../components/ui/alert.tsx';
import { Button, buttonClassName } from '../../components/ui/button.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { AnalyticsFilters } from './components/analytics-filters.tsx';
import { AnalyticsOverviewPanels } from './components/analytics-overview.tsx';
import { useAnalyticsFilters } from './hooks/use-analytics-filters.ts';
import { useAnalyticsView } from './hooks/use-analytics-view.ts';

/** 'Statistiques' (/analytics): the creator's TikTok figures over time and best times to post. */
export function AnalyticsPage() {
  const { t } = useTranslation();
  const [filters, setFilters] = useAnalyticsFilters();
  const view = useAnalyticsView(filters);
  const { accounts, known } = view;
  const header = (
    <PageHeader title={t('analytics.title')} description={t('analytics.description')} />
  );

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
        {header}
        <Alert tone="error">{t('analytics.loadFailed')}</Alert>
        <Button variant="secondary" className="mt-4" onClick={() => void accounts.refetch()}>
          {t('analytics.retry')}
        </Button>
      </>
    );
  }
  if (known.length === 0 && view.anyConnected) {
    return (
      <>
        {header}
        <Alert tone="info">{t('analytics.syncPending')}</Alert>
      </>
    );
  }
  if (known.length === 0) {
    return (
      <>
        {header}
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

  return (
    <>
      {header}
      <AnalyticsFilters
        accounts={known}
        value={{ ...filters, accountId: view.accountId }}
        onChange={setFilters}
        exportHref={view.exportHref}
      />
      <AnalyticsOverviewPanels
        overview={view.overview.data}
        loadFailed={view.overview.isError}
        fetching={view.overview.isFetching}
        bestTimes={view.bestTimes.data}
        lastSynced={view.lastSynced}
        timeZone={view.timeZone}
      />
    </>
  );
}
