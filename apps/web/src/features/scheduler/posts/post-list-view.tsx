import { localDateOf } from '@cadence/shared/schedule/planner';
import type { PostMetricsList } from '@cadence/shared/schemas/analytics';
import type { Post } from '@cadence/shared/schemas/schedule';
import { useQueries, type QueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { Button } from '../../../components/ui/button.tsx';
import { ClockIcon } from '../components/icons.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { getPostMetricsQueryOptions } from '../../../lib/analytics.ts';
import { formatCivilDate } from '../../../lib/format.ts';
import { useLanguage } from '../../../lib/i18n.ts';
import { getPostPagesQueryOptions, usePostPages, type PostList } from '../api/get-post-pages.ts';
import { useTimeZone } from '../../../lib/use-time-zone.ts';
import { filtersFromSearch, groupPostsByDay, type DayGroup } from './post-lists.ts';
import { useSchedulerOutlet } from '../scheduler-outlet.ts';
import { EmptyState } from './empty-state.tsx';
import { EmptyList, ViewLoadFailed, ViewLoading } from '../components/list-states.tsx';
import { PostFiltersBar } from './post-filters.tsx';
import { PostItem } from './post-item.tsx';

type Metrics = PostMetricsList['posts'][number];
type PostPages = ReturnType<typeof usePostPages>;
type PostPage = NonNullable<PostPages['data']>['pages'][number];

const relationKeys = {
  today: 'scheduler.days.today',
  tomorrow: 'scheduler.days.tomorrow',
  yesterday: 'scheduler.days.yesterday',
} as const;

/**
 * The queue (upcoming, soonest first) or the history (over, latest first): a page of posts at a
 * time from the server's cursor, grouped by day in the user's zone, filtered from the URL.
 */
export function PostListView({ list }: { list: PostList }) {
  const { t } = useTranslation();
  const { actions, openForm, live, requestedPost, focusRequest, drafts } = useSchedulerOutlet();
  const [search, setSearch] = useSearchParams();
  const filters = filtersFromSearch(search, list);
  const filtered = filters.accountId !== null || filters.status !== null;
  const pages = usePostPages(list, filters, { poll: !live });
  const zone = useTimeZone();
  const now = new Date();
  const loaded = pages.data?.pages ?? [];
  const posts = loaded.flatMap((page) => page.posts);
  const metrics = useHistoryMetrics(list === 'history' ? loaded : []);
  // The post a link asked for: its row when it is among the loaded ones, else shown on its own.
  const pinned =
    requestedPost !== null && !pages.isPending && !posts.some(({ id }) => id === requestedPost.id)
      ? requestedPost
      : null;
  const requestedId = pages.isPending ? null : (requestedPost?.id ?? null);
  const requestedFocus = useMemo(
    () => (requestedId === null ? null : { postId: requestedId }),
    [requestedId],
  );
  useFocusOnce(requestedFocus, { scroll: true });
  useFocusOnce(focusRequest, { scroll: false });
  const titleKey = list === 'queue' ? 'scheduler.lists.queueTitle' : 'scheduler.lists.historyTitle';

  let body;
  if (pages.isPending) {
    body = <ViewLoading label={t('app.loading')} />;
  } else if (pages.isError) {
    body = (
      <ViewLoadFailed
        message={t('scheduler.errors.loadFailed')}
        onRetry={() => void pages.refetch()}
      />
    );
  } else if (posts.length === 0 && filtered) {
    body = (
      <div className="rounded-2xl border-2 border-dashed border-slate-200 bg-white/60 px-6 py-10 text-center text-sm text-slate-600">
        <p>{t('scheduler.lists.noMatch')}</p>
        <Button variant="secondary" className="mt-4" onClick={() => setSearch({})}>
          {t('scheduler.filters.reset')}
        </Button>
      </div>
    );
  } else if (posts.length === 0) {
    body =
      list === 'queue' ? (
        // Nothing scheduled is not nothing saved: the drafts are counted.
        <EmptyState onCreate={openForm} drafts={drafts.data?.length ?? 0} />
      ) : (
        <EmptyList
          title={t('scheduler.lists.historyEmptyTitle')}
          description={t('scheduler.lists.historyEmptyDescription')}
        />
      );
  } else {
    body = (
      <PostDays
        days={groupPostsByDay(posts, list, zone.timeZone, now)}
        now={now}
        pages={pages}
        metrics={metrics}
      />
    );
  }

  return (
    <section aria-labelledby={`${list}-heading`} className="mt-6">
      <div className="mb-4 flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div className="min-w-0">
          <h2 id={`${list}-heading`} className="text-base font-semibold text-slate-900">
            {t(titleKey)}
          </h2>
          <p className="mt-0.5 flex items-center gap-1 text-xs text-slate-500">
            <ClockIcon className="h-3.5 w-3.5 shrink-0" />
            {t('scheduler.lists.timeZone', { zone: zone.name })}
          </p>
        </div>
        <PostFiltersBar list={list} filters={filters} />
      </div>
      {pinned && (
        <RequestedPost post={pinned}>
          <PostItem post={pinned} actions={actions} timeZone={zone.timeZone} now={now} />
        </RequestedPost>
      )}
      {body}
    </section>
  );
}

/** The history's figures, by post: one metrics request per loaded page's published posts. */
function useHistoryMetrics(pages: readonly PostPage[]) {
  return useQueries({
    queries: pages.map((page) =>
      getPostMetricsQueryOptions(
        page.posts.filter((post) => post.status === 'completed').map((post) => post.id),
      ),
    ),
    combine: (results) =>
      new Map<string, Metrics>(
        results.flatMap((result) =>
          (result.data?.posts ?? []).map((entry) => [entry.postId, entry] as const),
        ),
      ),
  });
}

/** The loaded posts, day by day, and 'Show more' while the server has more pages. */
function PostDays({
  days,
  now,
  pages,
  metrics,
}: {
  days: DayGroup[];
  now: Date;
  pages: PostPages;
  metrics: Map<string, Metrics>;
}) {
  const { t } = useTranslation();
  const { actions } = useSchedulerOutlet();
  const { timeZone } = useTimeZone();
  return (
    <>
      <div className="space-y-6">
        {days.map((group) => (
          <Day key={group.date} group={group} now={now}>
            {group.posts.map((post) => (
              <li key={post.id}>
                <PostItem
                  post={post}
                  actions={actions}
                  timeZone={timeZone}
                  metrics={metrics.get(post.id)}
                  now={now}
                />
              </li>
            ))}
          </Day>
        ))}
      </div>
      {pages.hasNextPage && (
        <div className="mt-6 flex justify-center">
          <Button
            variant="secondary"
            onClick={() => void pages.fetchNextPage()}
            disabled={pages.isFetchingNextPage}
          >
            {pages.isFetchingNextPage && <Spinner className="h-4 w-4" />}
            {t(
              pages.isFetchingNextPage ? 'scheduler.lists.loadingMore' : 'scheduler.lists.showMore',
            )}
          </Button>
        </div>
      )}
    </>
  );
}

/**
 * Focuses the first action of `request`'s row once it is drawn (looked for after every render of
 * the list, which redraws when its pages come), once per request; `scroll` brings it to the
 * middle of the screen first.
 */
function useFocusOnce(request: { postId: string } | null, { scroll }: { scroll: boolean }) {
  const done = useRef<{ postId: string } | null>(null);
  useEffect(() => {
    if (request === null || done.current === request) return;
    const item = document.querySelector(`[data-post-id="${CSS.escape(request.postId)}"]`);
    if (!item) return;
    done.current = request;
    if (scroll) item.scrollIntoView({ block: 'center' });
    // Its first action; a post with none (published privately) is focused itself, and read out.
    const action = item.querySelector<HTMLElement>('button, a');
    if (action) action.focus({ preventScroll: scroll });
    else if (item instanceof HTMLElement) {
      item.tabIndex = -1;
      item.focus({ preventScroll: scroll });
    }
  });
}

/** A post asked for by a link that is not among the list's loaded pages (or not in this list). */
function RequestedPost({ post, children }: { post: Post; children: React.ReactNode }) {
  const { t } = useTranslation();
  const headingId = `requested-${post.id}`;
  return (
    <section aria-labelledby={headingId} className="mb-6" data-testid="requested-post">
      <h3 id={headingId} className="mb-2 px-1 text-sm font-semibold text-slate-900">
        {t('scheduler.lists.requested')}
      </h3>
      <div className="overflow-hidden rounded-2xl bg-white shadow-sm ring-2 ring-brand-300">
        {children}
      </div>
    </section>
  );
}

function Day({ group, now, children }: { group: DayGroup; now: Date; children: React.ReactNode }) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const { timeZone } = useTimeZone();
  const withYear = group.date.slice(0, 4) !== localDateOf(now, timeZone).slice(0, 4);
  const written = formatCivilDate(group.date, language, withYear);
  // 'jeudi 26 novembre' starts a heading on its own: 'Jeudi 26 novembre'.
  const date =
    group.relation === 'other'
      ? written.charAt(0).toLocaleUpperCase(language) + written.slice(1)
      : written;
  const headingId = `day-${group.date}`;
  const count = group.posts.length;
  return (
    <section aria-labelledby={headingId}>
      <h3 id={headingId} className="mb-2 flex items-baseline gap-2 px-1">
        {group.relation === 'other' ? (
          <span className="text-sm font-semibold text-slate-900">{date}</span>
        ) : (
          <>
            <span className="text-sm font-semibold text-slate-900">
              {t(relationKeys[group.relation])}
            </span>{' '}
            <span className="text-xs font-normal text-slate-500">{date}</span>
          </>
        )}{' '}
        <span className="ml-auto text-xs font-normal text-slate-500">
          {t(count === 1 ? 'scheduler.lists.dayCountOne' : 'scheduler.lists.dayCountMany', {
            n: count,
          })}
        </span>
      </h3>
      <ul className="divide-y divide-slate-100 overflow-hidden rounded-2xl bg-white shadow-sm ring-1 ring-slate-200">
        {children}
      </ul>
    </section>
  );
}

/** A list's first page under the address's filters: the first screen is drawn with it (app/router.tsx). */
function listFirstData(list: PostList) {
  return (client: QueryClient, url: URL): Promise<void> =>
    client.prefetchInfiniteQuery(
      getPostPagesQueryOptions(list, filtersFromSearch(url.searchParams, list)),
    );
}

export const queueFirstData = listFirstData('queue');
export const historyFirstData = listFirstData('history');

/** /scheduler (the default view). */
export function QueueView() {
  return <PostListView list="queue" />;
}

/** /scheduler/history */
export function HistoryView() {
  return <PostListView list="history" />;
}
