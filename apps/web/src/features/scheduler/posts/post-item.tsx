import type { PostMetricsList } from '@cadence/shared/schemas/analytics';
import type { Post } from '@cadence/shared/schemas/schedule';
import { useTranslation } from 'react-i18next';
import { PostMetrics } from '../../../components/analytics/post-metrics.tsx';
import { useKeyText } from '../../../lib/error-text.ts';
import { formatDateTime, formatTime } from '../../../lib/format.ts';
import { useLanguage } from '../../../lib/i18n.ts';
import { failReasonKey } from '@cadence/shared/fail-reason-keys';
import { ShuffleIcon, VideoIcon } from '../components/icons.tsx';
import { PostButtons, type PostActions } from './post-buttons.tsx';
import { postBadge, StatusBadge } from './status-badge.tsx';

type Metrics = PostMetricsList['posts'][number];

/**
 * One post as a row of the queue or the history: thumbnail, time (in `timeZone`: when it is due,
 * or once over when it was published, failed or cancelled; a cancelled one also says when it had
 * been due), account, caption on one line, status and what can be done. `metrics`: a published post's figures
 * (`undefined` until they are known, and for other posts).
 */
export function PostItem({
  post,
  actions,
  timeZone,
  metrics,
  now,
}: {
  post: Post;
  actions: PostActions;
  timeZone: string;
  metrics?: Metrics | undefined;
  now: Date;
}) {
  const { t } = useTranslation();
  const keyText = useKeyText();
  const { language } = useLanguage();
  const caption = post.title.trim() || t('scheduler.post.untitled');
  // The history is in the order things happened (its day headings too): a row says when.
  const shownAt = post.outcomeAt ?? post.dueAt;

  return (
    <article
      className="flex gap-3 px-3 py-3 sm:items-center sm:gap-4 sm:px-4"
      aria-label={t('scheduler.post.label', { username: post.accountUsername, caption })}
      data-post-id={post.id}
    >
      <PostThumb url={post.thumbnailUrl} />

      {/* From 640 px, when, what and the actions share a line; when the actions would leave the
          text less than 16rem (three of them on a refused post at 768 px), they wrap below it. */}
      <div className="min-w-0 flex-1 sm:flex sm:flex-wrap sm:items-center sm:gap-x-4 sm:gap-y-2">
        <PostTime at={shownAt} randomized={post.randomized} timeZone={timeZone} />

        <div className="mt-1 min-w-0 flex-1 sm:mt-0 sm:min-w-64">
          <p className="flex min-w-0 items-baseline gap-1.5 text-xs text-slate-500">
            <span className="truncate font-semibold text-slate-700">@{post.accountUsername}</span>
            {post.accountId === null && (
              <span className="shrink-0">· {t('scheduler.post.accountDeleted')}</span>
            )}
          </p>
          <p
            className={`truncate text-sm ${post.title.trim() ? 'text-slate-800' : 'italic text-slate-500'}`}
            title={post.title.trim() ? post.title : undefined}
          >
            {caption}
          </p>
          {post.status === 'failed' && (
            <p className="mt-1 text-xs text-red-700" data-testid="fail-reason">
              {t(failReasonKey(post.failReason))}
            </p>
          )}
          {post.status === 'cancelled' && (
            <p className="mt-1 text-xs text-slate-500" data-testid="was-due">
              {t('scheduler.post.wasDue', {
                date: formatDateTime(post.dueAt, language, timeZone),
              })}
            </p>
          )}
          {post.note !== null && post.status === 'pending' && (
            <p className="mt-1 text-xs text-amber-800">{keyText(post.note)}</p>
          )}
          {post.status === 'completed' && post.delivery === 'direct' && (
            <div className="mt-1">
              {/* TikTok gives a private post no id, so never any figures: say so, not 'soon'. */}
              {post.privacyLevel === 'SELF_ONLY' && post.tiktokPostId === null ? (
                <p className="text-xs text-slate-500">{t('analytics.postMetrics.private')}</p>
              ) : (
                <PostMetrics metrics={metrics} />
              )}
            </div>
          )}
        </div>

        <div className="mt-2 flex flex-wrap items-center gap-2 sm:ml-auto sm:mt-0 sm:shrink-0 sm:justify-end">
          <StatusBadge status={postBadge(post)} />
          <PostButtons post={post} actions={actions} caption={caption} now={now} />
        </div>
      </div>
    </article>
  );
}

/** The video's poster, or a video icon while it has none. */
function PostThumb({ url }: { url: string | null }) {
  return (
    <div className="relative h-16 w-9 shrink-0 overflow-hidden rounded-md bg-slate-900 sm:h-14 sm:w-8">
      {url ? (
        <img src={url} alt="" className="h-full w-full object-cover" loading="lazy" />
      ) : (
        <div className="flex h-full w-full items-center justify-center text-slate-500">
          <VideoIcon className="h-4 w-4" />
        </div>
      )}
    </div>
  );
}

/** When the row's post is due or was over (`at`), with '±1h' when its time is randomized. */
function PostTime({
  at,
  randomized,
  timeZone,
}: {
  at: string;
  randomized: boolean;
  timeZone: string;
}) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  return (
    <div className="flex items-center gap-2 sm:w-14 sm:shrink-0 sm:flex-col sm:items-start sm:gap-0.5">
      <time
        dateTime={at}
        title={formatDateTime(at, language, timeZone)}
        className="text-sm font-semibold tabular-nums text-slate-900"
      >
        {formatTime(at, language, timeZone)}
      </time>
      {randomized && (
        <span
          className="inline-flex items-center gap-0.5 text-[11px] font-semibold text-cyan-800"
          title={t('scheduler.post.randomizedHint')}
        >
          <ShuffleIcon className="h-3 w-3" />
          <span aria-hidden="true">±1h</span>
          <span className="sr-only">{t('scheduler.post.randomizedHint')}</span>
        </span>
      )}
    </div>
  );
}
