import { memeAnalysisSchema, type RecompileMemeInput } from '@cadence/shared/schemas/meme';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** POST /api/memes/:id/recompile — a new compilation of the ticked extracts, same analysis. */
export function recompileMemeAnalysis({ id, ...input }: RecompileMemeInput & { id: string }) {
  return apiRequest(`/api/memes/${encodeURIComponent(id)}/recompile`, memeAnalysisSchema, {
    method: 'POST',
    body: input,
  });
}

export function useRecompileMemeAnalysis() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: recompileMemeAnalysis,
    onSuccess: (analysis) => {
      queryClient.setQueryData(queryKeys.memes.detail(analysis.id), analysis);
      void queryClient.invalidateQueries({ queryKey: queryKeys.memes.all, exact: true });
    },
  });
}
