import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

// The three actions answer with the post (or nothing useful to us): the list is refetched
// either way, so the body is not relied upon.
const anyBody = z.unknown();

function postAction(id: string, action: 'cancel' | 'retry' | 'reschedule', body?: unknown) {
  return apiRequest(`/api/posts/${encodeURIComponent(id)}/${action}`, anyBody, {
    method: 'POST',
    body: body ?? {},
  });
}

/** POST /api/posts/:id/cancel — pending posts only. */
export function cancelPost(id: string) {
  return postAction(id, 'cancel');
}

/** POST /api/posts/:id/retry — failed posts only. */
export function retryPost(id: string) {
  return postAction(id, 'retry');
}

/** POST /api/posts/:id/reschedule — pending posts; `dueAt` ISO 8601. */
export function reschedulePost({ id, dueAt }: { id: string; dueAt: string }) {
  return postAction(id, 'reschedule', { dueAt });
}

function usePostMutation<TVariables>(mutationFn: (variables: TVariables) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSettled: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.posts }),
        queryClient.invalidateQueries({ queryKey: queryKeys.accounts.all }),
      ]);
    },
  });
}

export const useCancelPost = () => usePostMutation(cancelPost);
export const useRetryPost = () => usePostMutation(retryPost);
export const useReschedulePost = () => usePostMutation(reschedulePost);
