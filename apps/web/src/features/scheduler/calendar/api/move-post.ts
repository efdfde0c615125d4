import type { Calendar } from '@cadence/shared/schemas/planning';
import { postSchema } from '@cadence/shared/schemas/schedule';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../../lib/api-client.ts';
import { queryKeys } from '../../../../lib/query-keys.ts';

/** PATCH /api/posts/:id with only a new time: 409 with the lock's reason once publishing began. */
export function movePost({ id, dueAt }: { id: string; dueAt: string }) {
  return apiRequest(`/api/posts/${encodeURIComponent(id)}`, postSchema, {
    method: 'PATCH',
    body: { dueAt },
  });
}

type Snapshot = [readonly unknown[], Calendar | undefined][];

/**
 * Moves a post on every cached calendar at once (optimistic), puts them back as they were when
 * the server refuses (a 409 when the worker took the post meanwhile), and refetches either way.
 */
export function useMovePost() {
  const queryClient = useQueryClient();
  const calendars = { queryKey: queryKeys.calendars };
  return useMutation({
    mutationFn: movePost,
    onMutate: async ({ id, dueAt }): Promise<{ snapshot: Snapshot }> => {
      await queryClient.cancelQueries(calendars);
      const snapshot = queryClient.getQueriesData<Calendar>(calendars);
      queryClient.setQueriesData<Calendar>(calendars, (calendar) =>
        calendar
          ? {
              ...calendar,
              posts: calendar.posts.map((post) => (post.id === id ? { ...post, dueAt } : post)),
            }
          : calendar,
      );
      return { snapshot };
    },
    onError: (_error, _variables, context) => {
      for (const [queryKey, data] of context?.snapshot ?? [])
        queryClient.setQueryData(queryKey, data);
    },
    onSettled: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.posts }),
        queryClient.invalidateQueries({ queryKey: queryKeys.accounts.all }),
      ]);
    },
  });
}
