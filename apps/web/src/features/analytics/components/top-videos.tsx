import type { AnalyticsVideo } from '@cadence/shared/schemas/analytics';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '../../../lib/i18n.ts';
import { useTimeZone } from '../../../lib/use-time-zone.ts';
import { formatDate, formatNumber, formatPercent } from '../format.ts';

/** The period's most viewed videos, with their covers. */
export function TopVideos({ videos }: { videos: AnalyticsVideo[] }) {
  const { t } = useTranslation();
  return (
    <section
      className="min-w-0 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200"
      aria-labelledby="top-videos-title"
      data-testid="top-videos"
    >
      <h2 id="top-videos-title" className="text-base font-semibold text-slate-900">
        {t('analytics.topVideos.title')}
      </h2>
      <p className="mt-0.5 text-sm text-slate-600">{t('analytics.topVideos.description')}</p>
      {videos.length === 0 ? (
        <p className="mt-4 text-sm text-slate-500">{t('analytics.topVideos.empty')}</p>
      ) : (
        <ol className="mt-4 grid gap-3 sm:grid-cols-2">
          {videos.map((video, index) => (
            <TopVideo key={video.id} video={video} rank={index + 1} />
          ))}
        </ol>
      )}
    </section>
  );
}

function TopVideo({ video, rank }: { video: AnalyticsVideo; rank: number }) {
  const { t } = useTranslation();
  const { language, locale } = useLanguage();
  const { timeZone } = useTimeZone();
  // TikTok's cover links expire after 6 hours: until the next sync refreshes it, a plain tile.
  const [coverFailed, setCoverFailed] = useState(false);
  return (
    <li className="flex min-w-0 gap-3 rounded-lg p-2 ring-1 ring-slate-100">
      <div className="relative h-24 w-14 shrink-0 overflow-hidden rounded-md bg-slate-200">
        {video.coverImageUrl && !coverFailed && (
          <img
            src={video.coverImageUrl}
            alt=""
            className="h-full w-full object-cover"
            onError={() => setCoverFailed(true)}
          />
        )}
        <span className="absolute left-1 top-1 rounded bg-slate-900/80 px-1 text-xs font-bold text-white">
          {rank}
        </span>
      </div>
      <div className="min-w-0 flex-1">
        <p className="truncate text-sm font-semibold text-slate-900" title={video.title}>
          {video.title || `#${video.videoId.slice(-6)}`}
        </p>
        <p className="text-xs text-slate-500">
          @{video.accountUsername} ·{' '}
          {t('analytics.topVideos.postedOn', {
            date: formatDate(video.postedAt, locale, timeZone),
          })}
        </p>
        <p className="mt-1 text-sm font-medium text-slate-800">
          {t('analytics.topVideos.views', { count: video.views })}
        </p>
        <p className="text-xs text-slate-600">
          {formatNumber(video.likes, language)} {t('analytics.totals.likes').toLowerCase()} ·{' '}
          {formatNumber(video.comments, language)} {t('analytics.totals.comments').toLowerCase()} ·{' '}
          {formatNumber(video.shares, language)} {t('analytics.totals.shares').toLowerCase()}
          {video.engagementRate !== null &&
            ` · ${t('analytics.topVideos.engagement', { rate: formatPercent(video.engagementRate, language) })}`}
        </p>
        <p className="mt-1 flex flex-wrap gap-x-3 text-xs">
          {video.shareUrl && (
            <a
              href={video.shareUrl}
              target="_blank"
              rel="noreferrer"
              className="font-medium text-sky-700 hover:text-sky-900"
            >
              {t('analytics.topVideos.openOnTikTok')}
            </a>
          )}
          {video.postId && (
            <span className="text-emerald-700">{t('analytics.topVideos.viaCadence')}</span>
          )}
        </p>
      </div>
    </li>
  );
}
