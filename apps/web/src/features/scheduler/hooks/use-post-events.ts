import { postSchema, type Post } from '@cadence/shared/schemas/schedule';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { queryKeys } from '../../../lib/query-keys.ts';

/** Replaces the post in the cached list; a post we have not seen yet means the list is stale. */
export function mergePost(
  posts: readonly Post[],
  incoming: Post,
): { posts: Post[]; known: boolean } {
  const known = posts.some((post) => post.id === incoming.id);
  return {
    posts: known ? posts.map((post) => (post.id === incoming.id ? incoming : post)) : [...posts],
    known,
  };
}

/**
 * Follows GET /api/posts/events (server-sent `post` events) and writes each post into the
 * TanStack cache, so statuses change on screen without a reload. Returns whether the stream is
 * connected; the caller polls while it is not.
 */
export function usePostEvents(): boolean {
  const queryClient = useQueryClient();
  const [connected, setConnected] = useState(false);

  useEffect(() => {
    if (typeof EventSource === 'undefined') return;
    const source = new EventSource('/api/posts/events');
    const onOpen = () => {
      setConnected(true);
      // Whatever happened while disconnected is only in the list.
      void queryClient.invalidateQueries({ queryKey: queryKeys.posts });
    };
    const onError = () => setConnected(source.readyState === EventSource.OPEN);
    const onPost = (event: MessageEvent<unknown>) => {
      let data: unknown;
      try {
        data = typeof event.data === 'string' ? JSON.parse(event.data) : null;
      } catch {
        return;
      }
      const parsed = postSchema.safeParse(data);
      if (!parsed.success) return;
      const current = queryClient.getQueryData<Post[]>(queryKeys.posts);
      if (!current) return;
      const { posts, known } = mergePost(current, parsed.data);
      if (known) queryClient.setQueryData(queryKeys.posts, posts);
      else void queryClient.invalidateQueries({ queryKey: queryKeys.posts });
      // Counts and next post on the accounts screen follow the statuses.
      void queryClient.invalidateQueries({ queryKey: queryKeys.accounts.all, exact: true });
    };
    source.addEventListener('open', onOpen);
    source.addEventListener('error', onError);
    source.addEventListener('post', onPost);
    return () => {
      source.removeEventListener('open', onOpen);
      source.removeEventListener('error', onError);
      source.removeEventListener('post', onPost);
      source.close();
    };
  }, [queryClient]);

  return connected;
}
