import { accountListSchema, type Account } from '@cadence/shared/schemas/account';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, apiRequest } from './api-client.ts';
import { queryKeys } from './query-keys.ts';

// The connected accounts are read by the accounts screen and the scheduler: one cache entry, one
// set of options (two definitions once disagreed on retries).

export async function getAccounts(): Promise<Account[]> {
  return (await apiRequest('/api/accounts', accountListSchema)).accounts;
}

/** Only a network failure or a server error may pass by retrying; anything else shows at once. */
function isTransient(error: Error): boolean {
  return error instanceof ApiError && (error.status === 0 || error.status >= 500);
}

export function getAccountsQueryOptions() {
  return queryOptions({
    queryKey: queryKeys.accounts.all,
    queryFn: getAccounts,
    retry: (failureCount, error) => failureCount < 2 && isTransient(error),
  });
}

export function useAccounts() {
  return useQuery(getAccountsQueryOptions());
}
