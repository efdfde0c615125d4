import { dateFormatter } from '@cadence/shared/date-format';
import type { AnalyticsOverview, BestTimes } from '@cadence/shared/schemas/analytics';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/ui/alert.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useLanguage } from '../../../lib/i18n.ts';
import { formatDay } from '../format.ts';
import { BestTimesPanel } from './best-times-panel.tsx';
import { FollowersChart, InteractionsChart, ViewsChart } from './daily-charts.tsx';
import { SummaryCards } from './summary-cards.tsx';
import { TopVideos } from './top-videos.tsx';

/**
 * The figures of the chosen period: its dates and the last sync, then the totals, the daily
 * charts, the top videos and the best times (a spinner until the first overview arrives).
 */
export function AnalyticsOverviewPanels({
  overview,
  loadFailed,
  fetching,
  bestTimes,
  lastSynced,
  timeZone,
}: {
  overview: AnalyticsOverview | undefined;
  loadFailed: boolean;
  fetching: boolean;
  bestTimes: BestTimes | undefined;
  lastSynced: string | undefined;
  timeZone: string;
}) {
  const { t } = useTranslation();
  return (
    <>
      <RangeAndSync overview={overview} lastSynced={lastSynced} timeZone={timeZone} />
      {loadFailed && <Alert tone="error">{t('analytics.loadFailed')}</Alert>}
      {!overview ? (
        <div className="flex justify-center py-16">
          <Spinner />
        </div>
      ) : (
        <div className="flex flex-col gap-6" aria-busy={fetching}>
          <SummaryCards totals={overview.totals} />
          <div className="grid min-w-0 gap-6 lg:grid-cols-2">
            <FollowersChart days={overview.days} />
            <ViewsChart days={overview.days} />
          </div>
          <InteractionsChart days={overview.days} />
          <TopVideos videos={overview.topVideos} />
          {bestTimes && <BestTimesPanel data={bestTimes} />}
        </div>
      )}
    </>
  );
}

/** 'Du … au …' and 'Données TikTok du …' (or that the first sync is still under way). */
function RangeAndSync({
  overview,
  lastSynced,
  timeZone,
}: {
  overview: AnalyticsOverview | undefined;
  lastSynced: string | undefined;
  timeZone: string;
}) {
  const { t } = useTranslation();
  const { locale } = useLanguage();
  return (
    <div className="mb-4 flex flex-wrap items-center justify-between gap-2 text-sm text-slate-600">
      {overview && (
        <p>
          {t('analytics.period.range', {
            from: formatDay(overview.range.from, locale, true),
            to: formatDay(overview.range.to, locale, true),
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
  );
}
