import { describeSlot } from '@cadence/shared/analytics/best-times';
import { dateFormatter } from '@cadence/shared/date-format';
import type { BestTimes } from '@cadence/shared/schemas/analytics';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '../../../lib/i18n.ts';
import { formatRatio } from '../format.ts';

function confidenceKey(confidence: number) {
  if (confidence >= 0.6) return 'analytics.bestTimes.confidence.high' as const;
  if (confidence >= 0.4) return 'analytics.bestTimes.confidence.medium' as const;
  return 'analytics.bestTimes.confidence.low' as const;
}

/** The suggested slots in words, each with its confidence and next occurrence. */
export function BestSlots({
  slots,
  timeZone,
  videosAnalysed,
}: {
  slots: BestTimes['slots'];
  timeZone: string;
  videosAnalysed: number;
}) {
  const { t } = useTranslation();
  const { language, locale } = useLanguage();
  const nextAt = dateFormatter(locale, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone,
  });
  return (
    <div className="mt-3">
      <h3 className="text-sm font-semibold text-slate-800">{t('analytics.bestTimes.topSlots')}</h3>
      <ol className="mt-1 space-y-1 text-sm" data-testid="best-slots">
        {slots.map((slot) => (
          <li key={`${slot.weekday}-${slot.hour}`} className="text-slate-800">
            <span className="font-semibold">
              {t('analytics.bestTimes.slot', {
                slot: describeSlot(slot, locale),
                score: formatRatio(slot.score, language),
              })}
            </span>{' '}
            <span className="text-slate-500">
              ({t(confidenceKey(slot.confidence))} ·{' '}
              {t('analytics.bestTimes.next', { date: nextAt.format(new Date(slot.nextAt)) })})
            </span>
          </li>
        ))}
      </ol>
      <p className="mt-1 text-xs text-slate-500">
        {t('analytics.bestTimes.analysed', { count: videosAnalysed })}
      </p>
    </div>
  );
}
