import {
  isActiveMemeStatus,
  memeAnalysisSchema,
  type MemeAnalysis,
} from '@cadence/shared/schemas/meme';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** GET /api/memes/:id — one analysis with its stage, progress, extracts and result. */
export function getMemeAnalysis(id: string): Promise<MemeAnalysis> {
  return apiRequest(`/api/memes/${encodeURIComponent(id)}`, memeAnalysisSchema);
}

export function getMemeAnalysisQueryOptions(id: string) {
  return queryOptions({
    queryKey: queryKeys.memes.detail(id),
    queryFn: () => getMemeAnalysis(id),
    // Live progress: every second while it runs, then never again.
    refetchInterval: (query) =>
      query.state.data && isActiveMemeStatus(query.state.data.status) ? 1000 : false,
  });
}

export function useMemeAnalysis(id: string | null) {
  return useQuery({ ...getMemeAnalysisQueryOptions(id ?? ''), enabled: id !== null });
}
