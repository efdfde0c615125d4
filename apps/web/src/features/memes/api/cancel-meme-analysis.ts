import { memeAnalysisSchema } from '@cadence/shared/schemas/meme';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { memeAnalysesQueryKey } from './get-meme-analyses.ts';
import { memeAnalysisQueryKey } from './get-meme-analysis.ts';

/** POST /api/memes/:id/cancel — stops the download, analysis or compilation. */
export function cancelMemeAnalysis(id: string) {
  return apiRequest(`/api/memes/${encodeURIComponent(id)}/cancel`, memeAnalysisSchema, {
    method: 'POST',
  });
}

export function useCancelMemeAnalysis() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelMemeAnalysis,
    onSuccess: (analysis) => queryClient.setQueryData(memeAnalysisQueryKey(analysis.id), analysis),
    onSettled: () => queryClient.invalidateQueries({ queryKey: memeAnalysesQueryKey }),
  });
}
