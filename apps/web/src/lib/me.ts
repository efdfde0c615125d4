import type { Language } from '@cadence/shared/errors';
import { meSchema, type Me } from '@cadence/shared/schemas/user';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, apiRequest } from './api-client.ts';
import { queryKeys } from './query-keys.ts';

// The signed-in person is app-wide state: guards, header, Pro gate and language all read it.

/** The signed-in person, or null when signed out. */
export async function getMe(): Promise<Me | null> {
  try {
    return await apiRequest('/api/me', meSchema);
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

export function getMeQueryOptions() {
  return queryOptions({ queryKey: queryKeys.me, queryFn: getMe, staleTime: 30_000, retry: 1 });
}

export function useMe() {
  return useQuery(getMeQueryOptions());
}
/** An account made before time zones were kept gets the browser's, once, when it is next used. */
export function saveTimeZone(timeZone: string) {
  return apiRequest('/api/me', meSchema, { method: 'PATCH', body: { timeZone } });
}

export function updateLanguage(preferredLanguage: Language) {
  return apiRequest('/api/me', meSchema, { method: 'PATCH', body: { preferredLanguage } });
}

export function useUpdateLanguage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateLanguage,
    onSuccess: (me) => queryClient.setQueryData(queryKeys.me, me),
  });
}
