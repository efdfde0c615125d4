import type { Post } from '@cadence/shared/schemas/schedule';
import { useTranslation } from 'react-i18next';
import { CalendarIcon, XIcon } from '../../../components/ui/icons.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { isLanguage } from '../../../lib/i18n.ts';
import { failReasonKey } from '../fail-reasons.ts';
import { ExternalIcon, RetryIcon, ShuffleIcon, VideoIcon } from './icons.tsx';
import { StatusBadge } from './status-badge.tsx';

export interface PostActions {
  onCancel: (post: Post) => void;
  onReschedule: (post: Post) => void;
  onRetry: (post: Post) => void;
  /** The post an action is running for, if any. */
  busyId: string | null;
}

const actionClass =
  'inline-flex items-center gap-1.5 rounded-lg px-2.5 py-1.5 text-xs font-semibold ring-1 ring-inset transition disabled:cursor-not-allowed disabled:opacity-50';

/** One scheduled video: thumbnail, account, due time, caption, status and what can be done. */
export function PostItem({ post, actions }: { post: Post; actions: PostActions }) {
  const { t, i18n } = useTranslation();
  const language = isLanguage(i18n.language) ? i18n.language : 'fr';
  const caption = post.title.trim() || t('scheduler.post.untitled');
  const busy = actions.busyId === post.id;

  return (
    <article
      className="flex gap-3 rounded-2xl bg-white p-3 shadow-sm ring-1 ring-slate-200 sm:gap-4 sm:p-4"
      aria-label={t('scheduler.post.label', { username: post.accountUsername, caption })}
      data-post-id={post.id}
    >
      <div className="relative h-24 w-[3.375rem] shrink-0 overflow-hidden rounded-lg bg-slate-900 sm:h-28 sm:w-16">
        {post.thumbnailUrl ? (
          <img
            src={post.thumbnailUrl}
            alt=""
            className="h-full w-full object-cover"
            loading="lazy"
          />
        ) : (
          <div className="flex h-full w-full items-center justify-center text-slate-500">
            <VideoIcon className="h-6 w-6" />
          </div>
        )}
      </div>

      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
          <StatusBadge status={post.status} />
          {post.randomized && (
            <span
              className="inline-flex items-center gap-1 rounded-full bg-accent-500/10 px-2 py-0.5 text-xs font-semibold text-cyan-800 ring-1 ring-inset ring-accent-500/30"
              title={t('scheduler.post.randomizedHint')}
            >
              <ShuffleIcon className="h-3 w-3" />
              <span aria-hidden="true">±1h</span>
              <span className="sr-only">{t('scheduler.post.randomizedHint')}</span>
            </span>
          )}
          <span className="truncate text-sm font-semibold text-slate-900">
            @{post.accountUsername}
          </span>
          {post.accountId === null && (
            <span className="text-xs text-slate-500">{t('scheduler.post.accountDeleted')}</span>
          )}
        </div>

        <p className="mt-1.5 flex items-center gap-1.5 text-sm text-slate-600">
          <CalendarIcon className="h-4 w-4 shrink-0 text-slate-400" />
          <time dateTime={post.dueAt}>{formatDateTime(post.dueAt, language)}</time>
        </p>
        <p
          className={`mt-1 line-clamp-2 break-words text-sm ${post.title.trim() ? 'text-slate-800' : 'italic text-slate-400'}`}
        >
          {caption}
        </p>

        {post.status === 'failed' && (
          <p
            className="mt-2 rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800"
            data-testid="fail-reason"
          >
            {t(failReasonKey(post.failReason))}
          </p>
        )}

        <PostFooter post={post} actions={actions} busy={busy} caption={caption} />
      </div>
    </article>
  );
}

function PostFooter({
  post,
  actions,
  busy,
  caption,
}: {
  post: Post;
  actions: PostActions;
  busy: boolean;
  caption: string;
}) {
  const { t } = useTranslation();
  const disabled = actions.busyId !== null;
  const name = { caption, username: post.accountUsername };

  if (post.status === 'completed' && post.tiktokPostUrl) {
    return (
      <div className="mt-3">
        <a
          href={post.tiktokPostUrl}
          target="_blank"
          rel="noreferrer"
          className="inline-flex items-center gap-1.5 text-sm font-semibold text-brand-600 hover:text-brand-700"
        >
          {t('scheduler.post.viewOnTiktok')}
          <ExternalIcon className="h-3.5 w-3.5" />
        </a>
      </div>
    );
  }
  if (post.status === 'pending') {
    return (
      <div className="mt-3 flex flex-wrap gap-2">
        <button
          type="button"
          onClick={() => actions.onReschedule(post)}
          disabled={disabled}
          aria-label={t('scheduler.post.rescheduleLabel', name)}
          className={`${actionClass} bg-white text-slate-700 ring-slate-300 hover:bg-slate-50`}
        >
          <CalendarIcon className="h-3.5 w-3.5" />
          {t('scheduler.post.reschedule')}
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
      </div>
    );
  }
  // Retrying needs the account: one deleted since cannot be posted to.
  if (post.status === 'failed' && post.accountId !== null) {
    return (
      <div className="mt-3">
        <button
          type="button"
          onClick={() => actions.onRetry(post)}
          disabled={disabled}
          aria-label={t('scheduler.post.retryLabel', name)}
          className={`${actionClass} bg-slate-900 text-white ring-slate-900 hover:bg-slate-800`}
        >
          {busy ? <Spinner className="h-3.5 w-3.5" /> : <RetryIcon className="h-3.5 w-3.5" />}
          {t('scheduler.post.retry')}
        </button>
      </div>
    );
  }
  return null;
}
