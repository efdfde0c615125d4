import { describeSlot } from '@cadence/shared/analytics/best-times';
import { dateFormatter } from '@cadence/shared/date-format';
import type { BestTimes } from '@cadence/shared/schemas/analytics';
import { useTranslation } from 'react-i18next';
import { ScrollRegion } from '../../../components/ui/scroll-region.tsx';
import { useLanguage } from '../../../lib/i18n.ts';
import { timeZoneWords } from '../../../lib/use-time-zone.ts';
import { formatRatio } from '../format.ts';

/** Warm for more views than usual, cool for fewer; paler with fewer videos behind the cell. */
function cellColor(score: number | null, confidence: number): string {
  if (score === null) return '#f1f5f9';
  const t = Math.max(-1, Math.min(1, Math.log2(score) / 1.5));
  const alpha = (0.3 + 0.7 * confidence).toFixed(2);
  return t >= 0
    ? `hsl(24 92% ${Math.round(92 - 47 * t)}% / ${alpha})`
    : `hsl(215 55% ${Math.round(92 - 30 * -t)}% / ${alpha})`;
}

function confidenceKey(confidence: number) {
  if (confidence >= 0.6) return 'analytics.bestTimes.confidence.high' as const;
  if (confidence >= 0.4) return 'analytics.bestTimes.confidence.medium' as const;
  return 'analytics.bestTimes.confidence.low' as const;
}

/** The weekday × hour heatmap of audience response and the suggested slots in words. */
export function BestTimesPanel({ data }: { data: BestTimes }) {
  const { t } = useTranslation();
  const { language, locale } = useLanguage();
  const weekdays = Array.from({ length: 7 }, (_, weekday) => ({
    short: new Intl.DateTimeFormat(locale, { weekday: 'short', timeZone: 'UTC' }).format(
      new Date(Date.UTC(2024, 0, 1 + weekday, 12)),
    ),
    slot: (hour: number) => describeSlot({ weekday, hour }, locale),
  }));
  const hours = Array.from({ length: 24 }, (_, hour) => hour);
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
        <div className="mt-3">
          <h3 className="text-sm font-semibold text-slate-800">
            {t('analytics.bestTimes.topSlots')}
          </h3>
          <ol className="mt-1 space-y-1 text-sm" data-testid="best-slots">
            {data.slots.map((slot) => (
              <li key={`${slot.weekday}-${slot.hour}`} className="text-slate-800">
                <span className="font-semibold">
                  {t('analytics.bestTimes.slot', {
                    slot: describeSlot(slot, locale),
                    score: formatRatio(slot.score, language),
                  })}
                </span>{' '}
                <span className="text-slate-500">
                  ({t(confidenceKey(slot.confidence))} ·{' '}
                  {t('analytics.bestTimes.next', {
                    date: dateFormatter(locale, {
                      weekday: 'short',
                      day: 'numeric',
                      month: 'short',
                      hour: '2-digit',
                      minute: '2-digit',
                      hourCycle: 'h23',
                      timeZone: data.timeZone,
                    }).format(new Date(slot.nextAt)),
                  })}
                  )
                </span>
              </li>
            ))}
          </ol>
          <p className="mt-1 text-xs text-slate-500">
            {t('analytics.bestTimes.analysed', { count: data.videosAnalysed })}
          </p>
        </div>
      )}
      <ScrollRegion
        className="mt-4 overflow-x-auto"
        label={t('analytics.bestTimes.heatmapCaption')}
      >
        <table
          className="w-full table-fixed border-separate border-spacing-px"
          data-testid="heatmap"
        >
          <caption className="sr-only">{t('analytics.bestTimes.heatmapCaption')}</caption>
          <colgroup>
            <col className="w-9" />
            {hours.map((hour) => (
              <col key={hour} />
            ))}
          </colgroup>
          <thead>
            <tr>
              <th scope="col" className="text-left text-[10px] font-medium text-slate-500">
                <span className="sr-only">{t('analytics.bestTimes.day')}</span>
              </th>
              {hours.map((hour) => (
                <th key={hour} scope="col" className="p-0 text-[10px] font-medium text-slate-500">
                  <span className={hour % 6 === 0 ? '' : 'sr-only'}>{hour}</span>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {weekdays.map((weekday, index) => (
              <tr key={weekday.short}>
                <th scope="row" className="pr-1 text-left text-[11px] font-medium text-slate-600">
                  {weekday.short}
                </th>
                {hours.map((hour) => {
                  const cell = data.cells.find(
                    (item) => item.weekday === index && item.hour === hour,
                  );
                  const label =
                    !cell || cell.score === null
                      ? t('analytics.bestTimes.cellEmpty', { slot: weekday.slot(hour) })
                      : t('analytics.bestTimes.cell', {
                          slot: weekday.slot(hour),
                          score: formatRatio(cell.score, language),
                          posts: cell.posts,
                        });
                  return (
                    <td
                      key={hour}
                      title={label}
                      className="h-5 p-0 sm:h-6"
                      style={{
                        backgroundColor: cellColor(cell?.score ?? null, cell?.confidence ?? 0),
                      }}
                    >
                      <span className="sr-only">{label}</span>
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
      <div className="mt-2 flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-slate-500">
        <span className="flex items-center gap-1">
          <span
            className="inline-block h-3 w-3 rounded-sm"
            style={{ backgroundColor: cellColor(0.4, 1) }}
          />
          {t('analytics.bestTimes.legendLow')}
        </span>
        <span className="flex items-center gap-1">
          <span
            className="inline-block h-3 w-3 rounded-sm"
            style={{ backgroundColor: cellColor(2.8, 1) }}
          />
          {t('analytics.bestTimes.legendHigh')}
        </span>
        <span>{t('analytics.bestTimes.legendConfidence')}</span>
      </div>
    </section>
  );
}
