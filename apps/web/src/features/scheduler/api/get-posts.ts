import { postSchema, type Post } from '@cadence/shared/schemas/schedule';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

const postListSchema = z.object({ posts: z.array(postSchema) });

/** Statuses that still change on their own (the worker moves them). */
export function isActive(post: Post): boolean {
  return post.status === 'pending' || post.status === 'publishing';
}

export async function getPosts(): Promise<Post[]> {
  return (await apiRequest('/api/posts', postListSchema)).posts;
}

export function getPostsQueryOptions({ poll }: { poll: boolean }) {
  return queryOptions({
    queryKey: queryKeys.posts,
    queryFn: getPosts,
    // The live stream normally keeps the list fresh; without it, poll while something can change.
    refetchInterval: (query) => (poll && (query.state.data ?? []).some(isActive) ? 5_000 : false),
  });
}

export function usePosts({ poll }: { poll: boolean }) {
  return useQuery(getPostsQueryOptions({ poll }));
}
