import { mediaSchema } from '@cadence/shared/schemas/media';
import { queryOptions, useQueries, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

/** GET /api/media/:id — duration (checked against the creator's limit) and thumbnail. */
export function getMedia(id: string) {
  return apiRequest(`/api/media/${encodeURIComponent(id)}`, mediaSchema);
}

export function getMediaQueryOptions(id: string) {
  return queryOptions({
    queryKey: ['media', id],
    queryFn: () => getMedia(id),
    staleTime: Infinity,
    retry: false,
  });
}

export function useMedia(id: string | null) {
  return useQuery({ ...getMediaQueryOptions(id ?? ''), enabled: id !== null });
}

export function useMediaList(ids: readonly string[]) {
  return useQueries({ queries: ids.map((id) => getMediaQueryOptions(id)) });
}
