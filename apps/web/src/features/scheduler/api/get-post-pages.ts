import {
  historyStatuses,
  postPageSchema,
  upcomingStatuses,
  type PostPage,
} from '@cadence/shared/schemas/planning';
import type { Post, PostStatus } from '@cadence/shared/schemas/schedule';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** The queue (what is still to come, soonest first) or the history (what is over, latest first). */
export type PostList = 'queue' | 'history';

export const listStatuses: Record<PostList, readonly PostStatus[]> = {
  queue: upcomingStatuses,
  history: historyStatuses,
};

/** The filters a list is narrowed by; they live in the page's URL. */
export interface PostFilters {
  accountId: string | null;
  status: PostStatus | null;
}

/** Posts per page: a screenful on a desktop, a few on a phone. */
export const POST_PAGE_SIZE = 20;

/** Whether `post` is one `list` shows under `filters` (for the live stream's updates). */
export function belongsTo(post: Post, list: PostList, filters: PostFilters): boolean {
  return (
    listStatuses[list].includes(post.status) &&
    (filters.accountId === null || post.accountId === filters.accountId) &&
    (filters.status === null || post.status === filters.status)
  );
}

/** GET /api/posts/queue | /api/posts/history — one page after `cursor` (null: the first). */
export function getPostPage(
  list: PostList,
  filters: PostFilters,
  cursor: string | null,
): Promise<PostPage> {
  const query = new URLSearchParams({ limit: String(POST_PAGE_SIZE) });
  if (filters.accountId !== null) query.set('accountId', filters.accountId);
  if (filters.status !== null) query.set('status', filters.status);
  if (cursor !== null) query.set('cursor', cursor);
  return apiRequest(`/api/posts/${list}?${query.toString()}`, postPageSchema);
}

export function getPostPagesQueryOptions(list: PostList, filters: PostFilters) {
  return infiniteQueryOptions({
    queryKey: queryKeys.postPages(list, filters),
    queryFn: ({ pageParam }) => getPostPage(list, filters, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });
}

/**
 * The pages of a list loaded so far ('Afficher plus' fetches the next). `poll`: without the live
 * stream, read the list again every 5 s while something on it can still change by itself.
 */
export function usePostPages(list: PostList, filters: PostFilters, { poll }: { poll: boolean }) {
  return useInfiniteQuery({
    ...getPostPagesQueryOptions(list, filters),
    refetchInterval: (query) =>
      poll &&
      (query.state.data?.pages ?? []).some((page) =>
        page.posts.some((post) => post.status === 'pending' || post.status === 'publishing'),
      )
        ? 5_000
        : false,
  });
}
