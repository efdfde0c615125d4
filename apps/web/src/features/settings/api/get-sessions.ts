import { authSessionSchema, currentSessionSchema } from '@cadence/shared/schemas/auth';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** Every open session of the signed-in person. */
export function getSessions() {
  return apiRequest('/api/auth/list-sessions', z.array(authSessionSchema));
}

/** The id of the session this browser uses, to mark it in the list. */
export async function getCurrentSessionId(): Promise<string | null> {
  const current = await apiRequest('/api/auth/get-session', currentSessionSchema);
  return current?.session.id ?? null;
}

export function getSessionsQueryOptions() {
  return queryOptions({ queryKey: queryKeys.sessions.all, queryFn: getSessions });
}

export function useSessions() {
  return useQuery(getSessionsQueryOptions());
}

export function useCurrentSessionId() {
  return useQuery({ queryKey: queryKeys.sessions.current, queryFn: getCurrentSessionId });
}
