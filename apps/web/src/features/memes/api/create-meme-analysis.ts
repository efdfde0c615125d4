import { memeAnalysisSchema, type CreateMemeAnalysisInput } from '@cadence/shared/schemas/meme';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { memeAnalysesQueryKey } from './get-meme-analyses.ts';
import { memeAnalysisQueryKey } from './get-meme-analysis.ts';

/** POST /api/memes — queues the analysis of a YouTube link or an uploaded video. */
export function createMemeAnalysis(input: CreateMemeAnalysisInput) {
  return apiRequest('/api/memes', memeAnalysisSchema, { method: 'POST', body: input });
}

export function useCreateMemeAnalysis() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createMemeAnalysis,
    onSuccess: (analysis) => {
      queryClient.setQueryData(memeAnalysisQueryKey(analysis.id), analysis);
      void queryClient.invalidateQueries({ queryKey: memeAnalysesQueryKey, exact: true });
    },
  });
}
