import { storyListSchema, type Story } from '@cadence/shared/schemas/story';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export function isActive(story: Story): boolean {
  return story.status === 'queued' || story.status === 'rendering';
}

/** GET /api/stories — the user's stories, newest first. */
export async function getStories(): Promise<Story[]> {
  return (await apiRequest('/api/stories', storyListSchema)).stories;
}

export function getStoriesQueryOptions() {
  return queryOptions({
    queryKey: queryKeys.stories,
    queryFn: getStories,
    // Live progress: poll every second while anything is queued or rendering, not otherwise.
    refetchInterval: (query) => (query.state.data?.some(isActive) ? 1000 : false),
  });
}

export function useStories() {
  return useQuery(getStoriesQueryOptions());
}
