import { storySchema } from '@cadence/shared/schemas/story';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** POST /api/stories/:id/cancel — stops a queued or rendering story. */
export function cancelStory(id: string) {
  return apiRequest(`/api/stories/${encodeURIComponent(id)}/cancel`, storySchema, {
    method: 'POST',
  });
}

export function useCancelStory() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelStory,
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.stories }),
  });
}
