import type { PostMetricsList } from '@cadence/shared/schemas/analytics';
import type { Post } from '@cadence/shared/schemas/schedule';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PostMetrics } from '../../../components/analytics/post-metrics.tsx';
import { CalendarIcon, LinkIcon, XIcon } from '../../../components/ui/icons.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useKeyText } from '../../../lib/error-text.ts';
import { formatDateTime, formatTime } from '../../../lib/format.ts';
import { useLanguage } from '../../../lib/i18n.ts';
import { failReasonKey } from '@cadence/shared/fail-reason-keys';
import { failRemedy } from '@cadence/shared/publish-fail-reasons';
import {
  ExternalIcon,
  PencilIcon,
  RetryIcon,
  ShuffleIcon,
  UndoIcon,
  VideoIcon,
} from '../components/icons.tsx';
import { postBadge, StatusBadge } from './status-badge.tsx';

export interface PostActions {
  onEdit: (post: Post) => void;
  /** Asks for confirmation first. */
  onCancel: (post: Post) => void;
  onReschedule: (post: Post) => void;
  onRetry: (post: Post) => void;
  onRestore: (post: Post) => void;
  /** The post an action is running for, if any. */
  busyId: string | null;
}

type Metrics = PostMetricsList['posts'][number];

const actionClass =
  'inline-flex items-center gap-1.5 rounded-lg px-2.5 py-1.5 text-xs font-semibold ring-1 ring-inset transition disabled:cursor-not-allowed disabled:opacity-50';
const quiet = `${actionClass} bg-white text-slate-700 ring-slate-300 hover:bg-slate-50`;
const primary = `${actionClass} bg-slate-900 text-white ring-slate-900 hover:bg-slate-800`;

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
      <div className="relative h-16 w-9 shrink-0 overflow-hidden rounded-md bg-slate-900 sm:h-14 sm:w-8">
        {post.thumbnailUrl ? (
          <img
            src={post.thumbnailUrl}
            alt=""
            className="h-full w-full object-cover"
            loading="lazy"
          />
        ) : (
          <div className="flex h-full w-full items-center justify-center text-slate-500">
            <VideoIcon className="h-4 w-4" />
          </div>
        )}
      </div>

      {/* From 640 px, when, what and the actions share a line; when the actions would leave the
          text less than 16rem (three of them on a refused post at 768 px), they wrap below it. */}
      <div className="min-w-0 flex-1 sm:flex sm:flex-wrap sm:items-center sm:gap-x-4 sm:gap-y-2">
        <div className="flex items-center gap-2 sm:w-14 sm:shrink-0 sm:flex-col sm:items-start sm:gap-0.5">
          <time
            dateTime={shownAt}
            title={formatDateTime(shownAt, language, timeZone)}
            className="text-sm font-semibold tabular-nums text-slate-900"
          >
            {formatTime(shownAt, language, timeZone)}
          </time>
          {post.randomized && (
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

function PostButtons({
  post,
  actions,
  caption,
  now,
}: {
  post: Post;
  actions: PostActions;
  caption: string;
  now: Date;
}) {
  const { t } = useTranslation();
  const disabled = actions.busyId !== null;
  const busy = actions.busyId === post.id;
  const name = { caption, username: post.accountUsername };
  const hasAccount = post.accountId !== null;

  const reschedule = (
    <button
      type="button"
      onClick={() => actions.onReschedule(post)}
      disabled={disabled}
      aria-label={t('scheduler.post.rescheduleLabel', name)}
      className={quiet}
    >
      <CalendarIcon className="h-3.5 w-3.5" />
      {t('scheduler.post.reschedule')}
    </button>
  );

  switch (post.status) {
    case 'completed':
      // Sent to the creator's TikTok inbox: they finish it in the app, there is no post to open.
      if (post.delivery === 'inbox') {
        return <span className="text-xs text-slate-600">{t('scheduler.post.inInbox')}</span>;
      }
      return post.tiktokPostUrl ? (
        <a
          href={post.tiktokPostUrl}
          target="_blank"
          rel="noreferrer"
          className="inline-flex items-center gap-1 text-xs font-semibold text-brand-600 hover:text-brand-700"
        >
          {t('scheduler.post.viewOnTiktok')}
          <ExternalIcon className="h-3.5 w-3.5" />
        </a>
      ) : null;
    case 'pending':
      return (
        <>
          <button
            type="button"
            onClick={() => actions.onEdit(post)}
            disabled={disabled}
            aria-label={t('scheduler.post.editLabel', name)}
            className={quiet}
          >
            <PencilIcon className="h-3.5 w-3.5" />
            {t('scheduler.post.edit')}
          </button>
          <button
            type="button"
            onClick={() => actions.onCancel(post)}
            disabled={disabled}
            aria-label={t('scheduler.post.cancelLabel', name)}
            className={`${actionClass} bg-white text-red-700 ring-red-200 hover:bg-red-50`}
          >
            {busy ? <Spinner className="h-3.5 w-3.5" /> : <XIcon className="h-3.5 w-3.5" />}
            {t('scheduler.post.cancel')}
          </button>
        </>
      );
    // A deleted account cannot be posted to: nothing to retry, restore or reschedule.
    case 'failed': {
      const remedy = failRemedy(post.failReason);
      // Its reason says which video or setting to change; sending it again would fail the same way.
      if (!hasAccount || remedy === 'schedule_again') return null;
      // The first action is the one the reason asks for; a retry TikTok holds back stays quiet.
      const retryFirst = remedy === 'retry';
      return (
        <>
          {remedy === 'reconnect' && (
            <Link
              to="/tiktok"
              aria-label={t('scheduler.post.reconnectLabel', name)}
              className={primary}
            >
              <LinkIcon className="h-3.5 w-3.5" />
              {t('scheduler.post.reconnect')}
            </Link>
          )}
          <button
            type="button"
            onClick={() => actions.onRetry(post)}
            disabled={disabled}
            aria-label={t('scheduler.post.retryLabel', name)}
            className={retryFirst ? primary : quiet}
          >
            {busy ? <Spinner className="h-3.5 w-3.5" /> : <RetryIcon className="h-3.5 w-3.5" />}
            {t('scheduler.post.retry')}
          </button>
          {reschedule}
        </>
      );
    }
    case 'cancelled':
      return hasAccount ? (
        <>
          {Date.parse(post.dueAt) > now.getTime() && (
            <button
              type="button"
              onClick={() => actions.onRestore(post)}
              disabled={disabled}
              aria-label={t('scheduler.post.restoreLabel', name)}
              className={quiet}
            >
              {busy ? <Spinner className="h-3.5 w-3.5" /> : <UndoIcon className="h-3.5 w-3.5" />}
              {t('scheduler.post.restore')}
            </button>
          )}
          {reschedule}
        </>
      ) : null;
    case 'publishing':
      return null;
  }
}
