import type { Language } from '@cadence/shared/errors';
import type { Me } from '@cadence/shared/schemas/user';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, apiRequest, unchecked, type RequestOptions } from './api-client.ts';
import { queryKeys } from './query-keys.ts';

// The signed-in person is app-wide state: guards, header, Pro gate and language all read it.

/**
 * /api/me's answer, parsed with the shared schema. The schema (and zod's classic API with it)
 * loads with the first answer that carries a person: signed out, the sign-in screen never
 * downloads it (docs/decisions/037-first-load.md).
 */
async function requestMe(options?: RequestOptions): Promise<Me> {
  const body = await apiRequest('/api/me', unchecked, options);
  const { meSchema } = await import('./person-schema.ts');
  return meSchema.parse(body);
}

/** The signed-in person, or null when signed out. */
export async function getMe(): Promise<Me | null> {
  try {
    return await requestMe();
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
  return requestMe({ method: 'PATCH', body: { timeZone } });
}

export function updateLanguage(preferredLanguage: Language) {
  return requestMe({ method: 'PATCH', body: { preferredLanguage } });
}

export function useUpdateLanguage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateLanguage,
    onSuccess: (me) => queryClient.setQueryData(queryKeys.me, me),
  });
}
