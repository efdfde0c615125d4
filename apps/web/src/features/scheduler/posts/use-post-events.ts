import type { PostPage } from '@cadence/shared/schemas/planning';
import { postSchema, type Post } from '@cadence/shared/schemas/schedule';
import { useQueryClient, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import { useLiveEvent } from '../../../lib/live-events.tsx';
import { queryKeys } from '../../../lib/query-keys.ts';
import { belongsTo, type PostFilters, type PostList } from '../api/get-post-pages.ts';

type Pages = InfiniteData<PostPage, string | null>;

/**
 * What a changed post does to the pages of a list loaded so far: `updated` in place, `removed`
 * (it left the list, e.g. published), or `stale` (new to the list, or moved in time, due or
 * outcome: only the server knows where it goes now, so the list is read again). `unrelated`:
 * nothing to do.
 */
export function applyPostToPages(
  data: Pages,
  incoming: Post,
  belongs: boolean,
): { outcome: 'updated' | 'removed' | 'stale' | 'unrelated'; data: Pages } {
  const known = data.pages.some((page) => page.posts.some((post) => post.id === incoming.id));
  const moved = data.pages.some((page) =>
    page.posts.some(
      (post) =>
        post.id === incoming.id &&
        (post.dueAt !== incoming.dueAt || post.outcomeAt !== incoming.outcomeAt),
    ),
  );
  if (!known) return { outcome: belongs ? 'stale' : 'unrelated', data };
  if (belongs && moved) return { outcome: 'stale', data };
  const pages = data.pages.map((page) => ({
    ...page,
    posts: belongs
      ? page.posts.map((post) => (post.id === incoming.id ? incoming : post))
      : page.posts.filter((post) => post.id !== incoming.id),
  }));
  return { outcome: belongs ? 'updated' : 'removed', data: { ...data, pages } };
}

const lists: readonly PostList[] = ['queue', 'history'];

function isFilters(value: unknown): value is PostFilters {
  return typeof value === 'object' && value !== null && 'accountId' in value && 'status' in value;
}

/** Writes one changed post into every cached queue and history; other post lists are re-read. */
function writePost(queryClient: QueryClient, post: Post) {
  for (const list of lists) {
    const cached = queryClient.getQueriesData<Pages>({ queryKey: [...queryKeys.posts, list] });
    for (const [queryKey, data] of cached) {
      const filters = queryKey[2];
      if (!data || !isFilters(filters)) continue;
      const { outcome, data: next } = applyPostToPages(data, post, belongsTo(post, list, filters));
      if (outcome === 'updated' || outcome === 'removed') queryClient.setQueryData(queryKey, next);
      else if (outcome === 'stale') void queryClient.invalidateQueries({ queryKey, exact: true });
    }
  }
  void queryClient.invalidateQueries({
    queryKey: queryKeys.posts,
    predicate: (query) => !lists.some((list) => list === query.queryKey[1]),
  });
}

/**
 * Follows the live stream's `post` events (lib/live-events) and writes each post into the
 * TanStack cache, so statuses change on screen without a reload. Returns whether the stream is
 * connected; the caller polls while it is not.
 */
export function usePostEvents(): boolean {
  const queryClient = useQueryClient();
  return useLiveEvent(
    'post',
    (data) => {
      const parsed = postSchema.safeParse(data);
      if (!parsed.success) return;
      writePost(queryClient, parsed.data);
      // Counts and next post on the accounts screen follow the statuses.
      void queryClient.invalidateQueries({ queryKey: queryKeys.accounts.all, exact: true });
    },
    // Whatever happened while disconnected is only in the list.
    () => void queryClient.invalidateQueries({ queryKey: queryKeys.posts }),
  );
}
