import type { EditPost } from '@cadence/shared/schemas/planning';
import { postSchema } from '@cadence/shared/schemas/schedule';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

// Each action answers with the post as it is now; the lists are read again either way (a post
// may move from the queue to the history, or to another day).

function postAction(
  id: string,
  action: 'cancel' | 'retry' | 'reschedule' | 'restore',
  body?: unknown,
) {
  return apiRequest(`/api/posts/${encodeURIComponent(id)}/${action}`, postSchema, {
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

/** POST /api/posts/:id/reschedule — pending, cancelled or failed posts; `dueAt` ISO 8601. */
export function reschedulePost({ id, dueAt }: { id: string; dueAt: string }) {
  return postAction(id, 'reschedule', { dueAt });
}

/** POST /api/posts/:id/restore — a cancelled post back to pending, if its time is ahead. */
export function restorePost(id: string) {
  return postAction(id, 'restore');
}

/** PATCH /api/posts/:id — caption, privacy, interactions, time of a pending post (409: locked). */
export function editPost({ id, edit }: { id: string; edit: EditPost }) {
  return apiRequest(`/api/posts/${encodeURIComponent(id)}`, postSchema, {
    method: 'PATCH',
    body: edit,
  });
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
export const useRestorePost = () => usePostMutation(restorePost);
export const useEditPost = () => usePostMutation(editPost);
