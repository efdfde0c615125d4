import { mediaSchema } from '@cadence/shared/schemas/media';
import { queryOptions, useQueries } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** GET /api/media/:id — duration (checked against the creator's limit) and thumbnail. */
export function getMedia(id: string) {
  return apiRequest(`/api/media/${encodeURIComponent(id)}`, mediaSchema);
}

export function getMediaQueryOptions(id: string) {
  return queryOptions({
    queryKey: queryKeys.media(id),
    queryFn: () => getMedia(id),
    staleTime: Infinity,
    retry: false,
  });
}

export function useMediaList(ids: readonly string[]) {
  return useQueries({ queries: ids.map((id) => getMediaQueryOptions(id)) });
}
