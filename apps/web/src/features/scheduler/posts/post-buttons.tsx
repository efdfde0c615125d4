import type { Post } from '@cadence/shared/schemas/schedule';
import { failRemedy } from '@cadence/shared/publish-fail-reasons';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CalendarIcon, LinkIcon, XIcon } from '../../../components/ui/icons.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { ExternalIcon, PencilIcon, RetryIcon, UndoIcon } from '../components/icons.tsx';

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

const actionClass =
  'inline-flex items-center gap-1.5 rounded-lg px-2.5 py-1.5 text-xs font-semibold ring-1 ring-inset transition disabled:cursor-not-allowed disabled:opacity-50';
const quiet = `${actionClass} bg-white text-slate-700 ring-slate-300 hover:bg-slate-50`;
const primary = `${actionClass} bg-slate-900 text-white ring-slate-900 hover:bg-slate-800`;

/** A name for a row's buttons: the post's caption and account. */
type PostName = { caption: string; username: string };

/** What can be done with a post in its status: each button names the post it acts on. */
export function PostButtons({
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
  const name = { caption, username: post.accountUsername };
  const hasAccount = post.accountId !== null;
  switch (post.status) {
    case 'completed':
      return <CompletedLink post={post} />;
    case 'pending':
      return <PendingButtons post={post} actions={actions} name={name} />;
    // A deleted account cannot be posted to: nothing to retry, restore or reschedule.
    case 'failed':
      return hasAccount ? <FailedButtons post={post} actions={actions} name={name} /> : null;
    case 'cancelled':
      return hasAccount ? (
        <>
          {Date.parse(post.dueAt) > now.getTime() && (
            <RestoreButton post={post} actions={actions} name={name} />
          )}
          <RescheduleButton post={post} actions={actions} name={name} />
        </>
      ) : null;
    case 'publishing':
      return null;
  }
}

type ButtonsProps = { post: Post; actions: PostActions; name: PostName };

/** A published post's link to TikTok, or where an inbox draft went. */
function CompletedLink({ post }: { post: Post }) {
  const { t } = useTranslation();
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
}

function PendingButtons({ post, actions, name }: ButtonsProps) {
  const { t } = useTranslation();
  const disabled = actions.busyId !== null;
  const busy = actions.busyId === post.id;
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
}

function FailedButtons({ post, actions, name }: ButtonsProps) {
  const { t } = useTranslation();
  const disabled = actions.busyId !== null;
  const busy = actions.busyId === post.id;
  const remedy = failRemedy(post.failReason);
  // Its reason says which video or setting to change; sending it again would fail the same way.
  if (remedy === 'schedule_again') return null;
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
      <RescheduleButton post={post} actions={actions} name={name} />
    </>
  );
}

function RestoreButton({ post, actions, name }: ButtonsProps) {
  const { t } = useTranslation();
  return (
    <button
      type="button"
      onClick={() => actions.onRestore(post)}
      disabled={actions.busyId !== null}
      aria-label={t('scheduler.post.restoreLabel', name)}
      className={quiet}
    >
      {actions.busyId === post.id ? (
        <Spinner className="h-3.5 w-3.5" />
      ) : (
        <UndoIcon className="h-3.5 w-3.5" />
      )}
      {t('scheduler.post.restore')}
    </button>
  );
}

function RescheduleButton({ post, actions, name }: ButtonsProps) {
  const { t } = useTranslation();
  return (
    <button
      type="button"
      onClick={() => actions.onReschedule(post)}
      disabled={actions.busyId !== null}
      aria-label={t('scheduler.post.rescheduleLabel', name)}
      className={quiet}
    >
      <CalendarIcon className="h-3.5 w-3.5" />
      {t('scheduler.post.reschedule')}
    </button>
  );
}
