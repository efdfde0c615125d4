import { keptConnectionSchema, pendingConnectionSchema } from '@cadence/shared/schemas/account';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** GET /api/pending-connections/:id — which TikTok account was authorised for which card. */
export function getPendingConnection(id: string, signal?: AbortSignal) {
  return apiRequest(`/api/pending-connections/${id}`, pendingConnectionSchema, {
    ...(signal && { signal }),
  });
}

export function getPendingConnectionQueryOptions(id: string) {
  return queryOptions({
    queryKey: queryKeys.accounts.pendingConnection(id),
    queryFn: ({ signal }) => getPendingConnection(id, signal),
    // Answered once: a 404 (expired, already answered) is the answer, not a blip to retry.
    retry: false,
    staleTime: Infinity,
  });
}

export function usePendingConnection(id: string | null) {
  return useQuery({ ...getPendingConnectionQueryOptions(id ?? ''), enabled: id !== null });
}

/** POST …/keep — the grant goes on the card (renamed), or on the card already holding it. */
export function keepPendingConnection(id: string) {
  return apiRequest(`/api/pending-connections/${id}/keep`, keptConnectionSchema, {
    method: 'POST',
  });
}

/** POST …/cancel — nothing changes on the cards; the grant just issued is revoked at TikTok. */
export async function cancelPendingConnection(id: string) {
  await apiRequest(`/api/pending-connections/${id}/cancel`, z.null(), { method: 'POST' });
}

export function useAnswerPendingConnection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, choice }: { id: string; choice: 'keep' | 'cancel' }) =>
      choice === 'keep'
        ? keepPendingConnection(id).then(() => undefined)
        : cancelPendingConnection(id),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.accounts.all }),
  });
}
