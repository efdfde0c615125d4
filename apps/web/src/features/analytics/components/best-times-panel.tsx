import type { BestTimes } from '@cadence/shared/schemas/analytics';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '../../../lib/i18n.ts';
import { timeZoneWords } from '../../../lib/use-time-zone.ts';
import { BestSlots } from './best-slots.tsx';
import { BestTimesHeatmap, BestTimesLegend } from './best-times-heatmap.tsx';

/** The weekday × hour heatmap of audience response and the suggested slots in words. */
export function BestTimesPanel({ data }: { data: BestTimes }) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  return (
    <section
      className="min-w-0 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200"
      aria-labelledby="best-times-title"
      data-testid="best-times"
    >
      <h2 id="best-times-title" className="text-base font-semibold text-slate-900">
        {t('analytics.bestTimes.title')}
      </h2>
      <p className="mt-0.5 text-sm text-slate-600">
        {t('analytics.bestTimes.description', {
          timeZone: timeZoneWords(data.timeZone, language, t),
        })}
      </p>
      {data.status === 'not_enough_data' ? (
        <p
          className="mt-3 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900 ring-1 ring-inset ring-amber-200"
          data-testid="best-times-not-enough"
        >
          {t('analytics.bestTimes.notEnough', {
            count: data.videosAnalysed,
            minimum: data.minimumVideos,
          })}
        </p>
      ) : (
        <BestSlots
          slots={data.slots}
          timeZone={data.timeZone}
          videosAnalysed={data.videosAnalysed}
        />
      )}
      <BestTimesHeatmap cells={data.cells} />
      <BestTimesLegend />
    </section>
  );
}
