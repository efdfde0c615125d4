import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** Signs out one of my sessions (another device), by the id the list shows. */
export function revokeSession(id: string) {
  return apiRequest('/api/auth/revoke-session', z.unknown(), { method: 'POST', body: { id } });
}

/** Signs out every session but this one. */
export function revokeOtherSessions() {
  return apiRequest('/api/auth/revoke-other-sessions', z.unknown(), { method: 'POST', body: {} });
}

export function useRevokeSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeSession,
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.sessions.all }),
  });
}

export function useRevokeOtherSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeOtherSessions,
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.sessions.all }),
  });
}
