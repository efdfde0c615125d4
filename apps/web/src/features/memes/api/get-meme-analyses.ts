import {
  isActiveMemeStatus,
  memeAnalysisListSchema,
  type MemeAnalysis,
} from '@cadence/shared/schemas/meme';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** GET /api/memes — the user's analyses, newest first. */
export async function getMemeAnalyses(): Promise<MemeAnalysis[]> {
  return (await apiRequest('/api/memes', memeAnalysisListSchema)).analyses;
}

export function getMemeAnalysesQueryOptions() {
  return queryOptions({
    queryKey: queryKeys.memes.all,
    queryFn: getMemeAnalyses,
    // Statuses in the list move too: refresh every few seconds while anything runs.
    refetchInterval: (query) =>
      query.state.data?.some((analysis) => isActiveMemeStatus(analysis.status)) ? 3000 : false,
  });
}

export function useMemeAnalyses() {
  return useQuery(getMemeAnalysesQueryOptions());
}
