import type { AnalyticsOverview } from '@cadence/shared/schemas/analytics';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '../../../lib/i18n.ts';
import { formatChange, formatNumber, formatPercent } from '../format.ts';

/** The period at a glance: followers (and their change), gains, engagement, videos posted. */
export function SummaryCards({ totals }: { totals: AnalyticsOverview['totals'] }) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const unknown = t('analytics.totals.unknown');
  const items = [
    {
      key: 'followers',
      label: t('analytics.totals.followers'),
      value: totals.followers === null ? unknown : formatNumber(totals.followers, language),
      hint:
        totals.followersChange === null
          ? null
          : // '0 abonné sur la période' under 11 466 read as 'you have 0 followers'.
            totals.followersChange === 0
            ? t('analytics.totals.followersUnchanged')
            : t('analytics.totals.followersChange', {
                count: Math.abs(totals.followersChange),
                change: formatChange(totals.followersChange, language),
              }),
    },
    {
      key: 'views',
      label: t('analytics.totals.views'),
      value: formatNumber(totals.views, language),
    },
    {
      key: 'likes',
      label: t('analytics.totals.likes'),
      value: formatNumber(totals.likes, language),
    },
    {
      key: 'comments',
      label: t('analytics.totals.comments'),
      value: formatNumber(totals.comments, language),
    },
    {
      key: 'shares',
      label: t('analytics.totals.shares'),
      value: formatNumber(totals.shares, language),
    },
    {
      key: 'engagement',
      label: t('analytics.totals.engagementRate'),
      value:
        totals.engagementRate === null ? unknown : formatPercent(totals.engagementRate, language),
      hint: t('analytics.totals.engagementHint'),
    },
    {
      key: 'videos',
      label: t('analytics.totals.videosPosted'),
      value: formatNumber(totals.videosPosted, language),
      // TikTok lists public videos only (video.list): 'Moi uniquement' posts are not counted.
      hint: t('analytics.totals.videosPostedHint'),
    },
  ];
  return (
    <section aria-label={t('analytics.totals.label')} className="mb-6">
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4">
        {items.map((item) => (
          <div
            key={item.key}
            className={`rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 ${item.key === 'followers' ? 'col-span-2 sm:col-span-1' : ''}`}
            data-testid={`total-${item.key}`}
          >
            <dt className="text-sm font-medium text-slate-600">{item.label}</dt>
            <dd className="mt-1 text-2xl font-bold tracking-tight text-slate-900">{item.value}</dd>
            {item.hint && <dd className="mt-1 text-xs text-slate-500">{item.hint}</dd>}
          </div>
        ))}
      </dl>
    </section>
  );
}
