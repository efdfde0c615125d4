import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** DELETE /api/stories/:id — the story and its video (unless a scheduled post uses it). */
export function deleteStory(id: string) {
  return apiRequest(`/api/stories/${encodeURIComponent(id)}`, z.null(), { method: 'DELETE' });
}

export function useDeleteStory() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteStory,
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.stories }),
  });
}
