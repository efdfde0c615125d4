import { memeAnalysisSchema, type CreateMemeAnalysisInput } from '@cadence/shared/schemas/meme';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** POST /api/memes — queues the analysis of a YouTube link or an uploaded video. */
export function createMemeAnalysis(input: CreateMemeAnalysisInput) {
  return apiRequest('/api/memes', memeAnalysisSchema, { method: 'POST', body: input });
}

export function useCreateMemeAnalysis() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createMemeAnalysis,
    onSuccess: (analysis) => {
      queryClient.setQueryData(queryKeys.memes.detail(analysis.id), analysis);
      void queryClient.invalidateQueries({ queryKey: queryKeys.memes.all, exact: true });
    },
  });
}
