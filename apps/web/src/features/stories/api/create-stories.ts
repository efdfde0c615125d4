import { storyListSchema, type CreateStoriesInput } from '@cadence/shared/schemas/story';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** POST /api/stories — one story per top video; 400/403/429 carry translated `fields`. */
export async function createStories(input: CreateStoriesInput) {
  return (await apiRequest('/api/stories', storyListSchema, { method: 'POST', body: input }))
    .stories;
}

export function useCreateStories() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createStories,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.stories }),
  });
}
