import type { PostMetricsList } from '@cadence/shared/schemas/analytics';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '../../lib/i18n.ts';
import { ViewsSparkline } from './views-sparkline.tsx';

type PostMetricsEntry = PostMetricsList['posts'][number];

/**
 * A published post's figures so far (views, likes, comments, shares) and a sparkline of its
 * views, for a row of the queue or history. `metrics` undefined: not synced yet.
 */
export function PostMetrics({ metrics }: { metrics: PostMetricsEntry | undefined }) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  if (!metrics) {
    return <p className="text-xs text-slate-500">{t('analytics.postMetrics.pending')}</p>;
  }
  const number = new Intl.NumberFormat(language, { notation: 'compact' });
  return (
    <div className="flex items-center gap-3 text-xs text-slate-600">
      <ViewsSparkline values={metrics.sparkline} label={t('analytics.postMetrics.sparkline')} />
      <span>
        {t('analytics.postMetrics.label', {
          views: number.format(metrics.views),
          likes: number.format(metrics.likes),
          comments: number.format(metrics.comments),
          shares: number.format(metrics.shares),
        })}
      </span>
    </div>
  );
}
