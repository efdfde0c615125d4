import type { Post } from '@cadence/shared/schemas/schedule';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { PlusIcon } from '../../components/ui/icons.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { useMe } from '../../lib/me.ts';
import { useAccounts } from '../../lib/accounts.ts';
import { canScheduleTo } from './schedulable.ts';
import { usePosts } from './api/get-posts.ts';
import { useCancelPost, useRetryPost } from './api/post-actions.ts';
import { EmptyState } from './components/empty-state.tsx';
import { PostItem, type PostActions } from './components/post-item.tsx';
import { RescheduleDialog } from './components/reschedule-dialog.tsx';
import { ScheduleForm } from './components/schedule-form.tsx';
import { useErrorText } from '../../lib/error-text.ts';
import { usePostEvents } from './hooks/use-post-events.ts';

/** Newest schedule first (as the original listed them), a schedule's videos in due order. */
function sortPosts(posts: readonly Post[]): Post[] {
  return [...posts].sort(
    (a, b) => b.createdAt.localeCompare(a.createdAt) || a.dueAt.localeCompare(b.dueAt),
  );
}

type Notice = { tone: 'success' | 'error'; text: string };

/** 'Programmateur de vidéos' (/scheduler): the scheduled posts and the new-schedule slide-over. */
export function SchedulerPage() {
  const { t } = useTranslation();
  const errorText = useErrorText('scheduler.errors.actionFailed');
  const me = useMe();
  const live = usePostEvents();
  const posts = usePosts({ poll: !live });
  const accounts = useAccounts();
  const schedulable = useMemo(() => (accounts.data ?? []).filter(canScheduleTo), [accounts.data]);
  const [searchParams, setSearchParams] = useSearchParams();
  // Links from the accounts screen, the story creator and the meme detector open the form on
  // their account / video. Read once, then dropped from the URL so a reload does not re-attach.
  const [requested] = useState(() => ({
    accountId: searchParams.get('account'),
    mediaId: searchParams.get('media'),
  }));
  const [open, setOpen] = useState(requested.accountId !== null || requested.mediaId !== null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [rescheduling, setRescheduling] = useState<Post | null>(null);

  useEffect(() => {
    if (searchParams.has('account') || searchParams.has('media')) {
      setSearchParams({}, { replace: true });
    }
  }, [searchParams, setSearchParams]);

  const cancel = useCancelPost();
  const retry = useRetryPost();
  const busyId = cancel.isPending
    ? (cancel.variables ?? null)
    : retry.isPending
      ? (retry.variables ?? null)
      : null;

  const actions: PostActions = {
    busyId,
    onCancel: (post) =>
      cancel.mutate(post.id, {
        onSuccess: () => setNotice({ tone: 'success', text: t('scheduler.notices.cancelled') }),
        onError: (error) => setNotice({ tone: 'error', text: errorText(error) }),
      }),
    onRetry: (post) =>
      retry.mutate(post.id, {
        onSuccess: () => setNotice({ tone: 'success', text: t('scheduler.notices.retried') }),
        onError: (error) => setNotice({ tone: 'error', text: errorText(error) }),
      }),
    onReschedule: (post) => setRescheduling(post),
  };

  const openForm = () => {
    setNotice(null);
    setOpen(true);
  };
  const closeForm = useCallback(() => setOpen(false), []);
  const closeReschedule = useCallback(() => setRescheduling(null), []);
  const list = posts.data ? sortPosts(posts.data) : [];

  return (
    <>
      <PageHeader
        title={t('scheduler.title')}
        description={t('scheduler.description')}
        actions={
          <Button
            onClick={openForm}
            className="bg-gradient-to-r from-brand-600 to-brand-500 hover:from-brand-700 hover:to-brand-600"
          >
            <PlusIcon />
            {t('scheduler.newSchedule')}
          </Button>
        }
      />

      <div aria-live="polite" className="mb-6 empty:hidden">
        {notice && (
          <Alert tone={notice.tone}>
            <div className="flex items-start justify-between gap-3">
              <p>{notice.text}</p>
              <button
                type="button"
                onClick={() => setNotice(null)}
                aria-label={t('scheduler.notices.dismiss')}
                className="-my-1 -mr-2 rounded p-1 opacity-60 hover:opacity-100"
              >
                <svg
                  className="h-4 w-4"
                  viewBox="0 0 24 24"
                  fill="none"
                  stroke="currentColor"
                  strokeWidth="2"
                  aria-hidden="true"
                >
                  <path d="M6 6l12 12M18 6 6 18" strokeLinecap="round" />
                </svg>
              </button>
            </div>
          </Alert>
        )}
      </div>

      {posts.isPending ? (
        <div className="flex justify-center py-16 text-brand-600" role="status">
          <Spinner className="h-8 w-8" />
          <span className="sr-only">{t('app.loading')}</span>
        </div>
      ) : posts.isError ? (
        <Alert tone="error">
          <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
            <p>{t('scheduler.errors.loadFailed')}</p>
            <Button variant="secondary" onClick={() => void posts.refetch()}>
              {t('scheduler.errors.retryLoad')}
            </Button>
          </div>
        </Alert>
      ) : list.length === 0 ? (
        <EmptyState onCreate={openForm} />
      ) : (
        <section aria-labelledby="scheduled-heading">
          <div className="mb-3 flex items-center justify-between">
            <h2
              id="scheduled-heading"
              className="text-sm font-semibold uppercase tracking-wide text-slate-500"
            >
              {t('scheduler.list.title')}
            </h2>
            <span className="text-xs text-slate-500">
              {t(list.length === 1 ? 'scheduler.list.countOne' : 'scheduler.list.countMany', {
                n: list.length,
              })}
            </span>
          </div>
          <ul className="grid gap-3 lg:grid-cols-2" aria-label={t('scheduler.list.title')}>
            {list.map((post) => (
              <li key={post.id}>
                <PostItem post={post} actions={actions} />
              </li>
            ))}
          </ul>
        </section>
      )}

      <ScheduleForm
        open={open}
        onClose={closeForm}
        onScheduled={() => {
          setOpen(false);
          setNotice({ tone: 'success', text: t('scheduler.success') });
        }}
        accounts={schedulable}
        accountsLoading={accounts.isPending}
        requestedAccountId={requested.accountId}
        requestedMediaId={requested.mediaId}
        isPro={me.data?.isPro ?? false}
      />
      <RescheduleDialog
        post={rescheduling}
        onClose={closeReschedule}
        onDone={() => {
          setRescheduling(null);
          setNotice({ tone: 'success', text: t('scheduler.notices.rescheduled') });
        }}
      />
    </>
  );
}
