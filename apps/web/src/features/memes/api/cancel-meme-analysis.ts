import { memeAnalysisSchema } from '@cadence/shared/schemas/meme';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

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
    onSuccess: (analysis) =>
      queryClient.setQueryData(queryKeys.memes.detail(analysis.id), analysis),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.memes.all }),
  });
}
