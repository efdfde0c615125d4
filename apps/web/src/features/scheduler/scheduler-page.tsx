import type { Draft } from '@cadence/shared/schemas/planning';
import type { QueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useSearchParams } from 'react-router';
import { Button } from '../../components/ui/button.tsx';
import { PlusIcon } from '../../components/ui/icons.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { useDropSearchParams } from '../../lib/drop-search-params.ts';
import { useMe } from '../../lib/me.ts';
import { getAccountsQueryOptions, useAccounts } from '../../lib/accounts.ts';
import { getDraftsQueryOptions, useDrafts } from './api/get-drafts.ts';
import { canScheduleTo } from './schedulable.ts';
import { usePost } from './api/get-post.ts';
import { ViewNav } from './components/view-nav.tsx';
import { PageNotice, type Notice } from './page-notice.tsx';
import { PostActionDialogs } from './posts/post-action-dialogs.tsx';
import { usePostActions } from './posts/use-post-actions.ts';
import { usePostEvents } from './posts/use-post-events.ts';
import type { SchedulerOutletContext } from './scheduler-outlet.ts';

// The form (uploads, cover picker, planning) is a third of the screen's code and is not drawn
// until asked for: it loads when the person reaches for 'Nouvelle programmation' (hover, focus,
// touch) or a link opens it, so the lists show first (Lighthouse, issue 15).
const loadScheduleForm = () => import('./composer/schedule-form.tsx');
const ScheduleForm = lazy(() =>
  loadScheduleForm().then((module) => ({ default: module.ScheduleForm })),
);
const preloadScheduleForm = () => void loadScheduleForm();

/** While the form's code arrives after a press (a slow network): the press visibly did something. */
function FormLoading() {
  const { t } = useTranslation();
  return (
    <div
      role="status"
      className="fixed inset-0 z-40 flex items-center justify-center bg-slate-950/30 text-white"
    >
      <Spinner className="h-8 w-8" />
      <span className="sr-only">{t('app.loading')}</span>
    </div>
  );
}

/**
 * The accounts (the form's and the filters' choices) and the drafts (the tab's count): the first
 * screen is drawn with them (app/router.tsx).
 */
export async function schedulerFirstData(client: QueryClient): Promise<void> {
  await Promise.all([
    client.prefetchQuery(getAccountsQueryOptions()),
    client.prefetchQuery(getDraftsQueryOptions()),
  ]);
}

/** The form's parameters in a link to the screen (read once, then dropped); the list's filters stay. */
const formParams = ['account', 'media', 'at', 'post'] as const;

/** What a link asked of the page, from its address (see formParams). */
function requestOf(searchParams: URLSearchParams) {
  return {
    accountId: searchParams.get('account'),
    mediaId: searchParams.get('media'),
    // The calendar's empty slots: the form opens on 'scheduled' at that local date-time.
    at: searchParams.get('at'),
    // A notification's link: that post, shown and its action focused.
    postId: searchParams.get('post'),
  };
}
type PageRequest = ReturnType<typeof requestOf>;

const isRequest = (request: PageRequest) => Object.values(request).some((value) => value !== null);
const sameRequest = (a: PageRequest, b: PageRequest) =>
  a.accountId === b.accountId && a.mediaId === b.mediaId && a.at === b.at && a.postId === b.postId;
const opensForm = (request: PageRequest) =>
  request.accountId !== null || request.mediaId !== null || request.at !== null;

/**
 * 'Programmateur de vidéos' (/scheduler): the new-schedule slide-over, the view tabs, and below
 * them the view of the route (queue, history; the calendar plugs in the same way) through an
 * Outlet. The row actions' dialogs and the undo toast live here, shared by every view.
 */
export function SchedulerPage() {
  const { t } = useTranslation();
  const me = useMe();
  const live = usePostEvents();
  const accounts = useAccounts();
  const drafts = useDrafts(true);
  const schedulable = useMemo(() => (accounts.data ?? []).filter(canScheduleTo), [accounts.data]);
  const [searchParams] = useSearchParams();
  // Links from the accounts screen, the story creator and the meme detector open the form on
  // their account / video. Read once, then dropped from the URL so a reload does not re-attach.
  const [requested, setRequested] = useState(() => requestOf(searchParams));
  const [open, setOpen] = useState(opensForm(requested));
  // A link followed while this page is already up (the bell's, from the queue) is read too: the
  // page is not drawn again, so reading only once missed it.
  const incoming = requestOf(searchParams);
  if (isRequest(incoming) && !sameRequest(incoming, requested)) {
    setRequested(incoming);
    if (opensForm(incoming)) setOpen(true);
  }
  // Mounted from the first opening on, so a closed form keeps what was typed and uploaded.
  const [formUsed, setFormUsed] = useState(open);
  if (open && !formUsed) setFormUsed(true);
  const [notice, setNotice] = useState<Notice | null>(null);
  // A draft opened from the drafts tab, for the form to take in (a new object for each opening).
  const [draftRequest, setDraftRequest] = useState<{ draft: Draft } | null>(null);

  // Asked of the server, not looked for in the list: the post may be pages down, or in the other list.
  const requestedPost = usePost(requested.postId);
  useEffect(() => {
    if (requestedPost.isError)
      setNotice({ tone: 'error', text: t('scheduler.lists.requestedGone') });
  }, [requestedPost.isError, t]);

  useDropSearchParams(formParams);
  const postActions = usePostActions(setNotice);

  const openForm = () => {
    setNotice(null);
    setOpen(true);
  };
  const openDraft = (draft: Draft) => {
    setDraftRequest({ draft });
    openForm();
  };
  const closeForm = useCallback(() => setOpen(false), []);
  const outlet: SchedulerOutletContext = {
    actions: postActions.actions,
    openForm,
    drafts,
    accounts: accounts.data ?? [],
    openDraft,
    live,
    requestedPost: requestedPost.data ?? null,
    focusRequest: postActions.focusRequest,
  };

  return (
    <>
      <PageHeader
        title={t('scheduler.title')}
        description={t('scheduler.description')}
        actions={
          <Button
            onClick={openForm}
            onPointerEnter={preloadScheduleForm}
            onFocus={preloadScheduleForm}
            onTouchStart={preloadScheduleForm}
            className="bg-gradient-to-r from-brand-600 to-brand-500 hover:from-brand-700 hover:to-brand-600"
          >
            <PlusIcon />
            {t('scheduler.newSchedule')}
          </Button>
        }
      />

      <PageNotice notice={notice} onDismiss={() => setNotice(null)} />

      <ViewNav />
      <Outlet context={outlet} />

      {formUsed && (
        <Suspense fallback={<FormLoading />}>
          <ScheduleForm
            open={open}
            onClose={closeForm}
            onScheduled={(immediate) => {
              setOpen(false);
              // Posted now, they leave the queue within a minute: say where they went.
              setNotice({
                tone: 'success',
                text: t('scheduler.success'),
                ...(immediate && {
                  link: { to: '/scheduler/history', label: t('scheduler.notices.followInHistory') },
                }),
              });
            }}
            accounts={schedulable}
            accountsLoading={accounts.isPending}
            requestedAccountId={requested.accountId}
            requestedMediaId={requested.mediaId}
            requestedAt={requested.at}
            requestedDraft={draftRequest}
            isPro={me.data?.isPro ?? false}
          />
        </Suspense>
      )}
      <PostActionDialogs state={postActions} setNotice={setNotice} />
    </>
  );
}
