import { postSchema, type Post } from '@cadence/shared/schemas/schedule';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** GET /api/posts/:id — one of the user's posts (404 for anybody else's). */
export function getPost(id: string): Promise<Post> {
  return apiRequest(`/api/posts/${encodeURIComponent(id)}`, postSchema);
}

export function getPostQueryOptions(id: string) {
  return queryOptions({ queryKey: queryKeys.post(id), queryFn: () => getPost(id), retry: false });
}

/** The post a link asks for (`?post=<id>`, from a notification); idle when there is none. */
export function usePost(id: string | null) {
  return useQuery({ ...getPostQueryOptions(id ?? ''), enabled: id !== null });
}
