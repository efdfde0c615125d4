import { publicConfigSchema } from '@cadence/shared/schemas/person';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from './api-client.ts';
import { queryKeys } from './query-keys.ts';

export function getPublicConfig() {
  return apiRequest('/api/public-config', publicConfigSchema);
}

export function getPublicConfigQueryOptions() {
  return queryOptions({
    queryKey: queryKeys.publicConfig,
    queryFn: getPublicConfig,
    staleTime: Infinity,
  });
}

export function usePublicConfig() {
  return useQuery(getPublicConfigQueryOptions());
}
