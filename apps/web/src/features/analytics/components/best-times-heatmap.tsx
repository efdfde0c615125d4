import { describeSlot } from '@cadence/shared/analytics/best-times';
import type { BestTimes } from '@cadence/shared/schemas/analytics';
import { useTranslation } from 'react-i18next';
import { ScrollRegion } from '../../../components/ui/scroll-region.tsx';
import { useLanguage } from '../../../lib/i18n.ts';
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

const hours = Array.from({ length: 24 }, (_, hour) => hour);

/** The weekday × hour table of audience response, each cell named in words for screen readers. */
export function BestTimesHeatmap({ cells }: { cells: BestTimes['cells'] }) {
  const { t } = useTranslation();
  const { locale } = useLanguage();
  const weekdays = Array.from({ length: 7 }, (_, weekday) => ({
    short: new Intl.DateTimeFormat(locale, { weekday: 'short', timeZone: 'UTC' }).format(
      new Date(Date.UTC(2024, 0, 1 + weekday, 12)),
    ),
    slot: (hour: number) => describeSlot({ weekday, hour }, locale),
  }));
  return (
    <ScrollRegion className="mt-4 overflow-x-auto" label={t('analytics.bestTimes.heatmapCaption')}>
      <table className="w-full table-fixed border-separate border-spacing-px" data-testid="heatmap">
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
              {hours.map((hour) => (
                <HeatmapCell
                  key={hour}
                  cell={cells.find((item) => item.weekday === index && item.hour === hour)}
                  slot={weekday.slot(hour)}
                />
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}

function HeatmapCell({
  cell,
  slot,
}: {
  cell: BestTimes['cells'][number] | undefined;
  slot: string;
}) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const label =
    !cell || cell.score === null
      ? t('analytics.bestTimes.cellEmpty', { slot })
      : t('analytics.bestTimes.cell', {
          slot,
          score: formatRatio(cell.score, language),
          posts: cell.posts,
        });
  return (
    <td
      title={label}
      className="h-5 p-0 sm:h-6"
      style={{ backgroundColor: cellColor(cell?.score ?? null, cell?.confidence ?? 0) }}
    >
      <span className="sr-only">{label}</span>
    </td>
  );
}

/** What the heatmap's colours mean. */
export function BestTimesLegend() {
  const { t } = useTranslation();
  return (
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
  );
}
