import { accountListSchema } from '@cadence/shared/schemas/account';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, apiRequest } from '../../../lib/api-client.ts';

export const accountsQueryKey = ['accounts'] as const;

export async function getAccounts() {
  return (await apiRequest('/api/accounts', accountListSchema)).accounts;
}

/** Only a network failure or a server error may pass by retrying; anything else shows at once. */
function isTransient(error: Error): boolean {
  return error instanceof ApiError && (error.status === 0 || error.status >= 500);
}

export function getAccountsQueryOptions() {
  return queryOptions({
    queryKey: accountsQueryKey,
    queryFn: getAccounts,
    retry: (failureCount, error) => failureCount < 2 && isTransient(error),
  });
}

export function useAccounts() {
  return useQuery(getAccountsQueryOptions());
}
