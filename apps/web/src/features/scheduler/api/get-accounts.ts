import { accountListSchema, type Account } from '@cadence/shared/schemas/account';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

// Same key as the accounts screen: both read GET /api/accounts, so they share one cache entry.
export const accountsQueryKey = ['accounts'] as const;

export async function getAccounts(): Promise<Account[]> {
  return (await apiRequest('/api/accounts', accountListSchema)).accounts;
}

export function getAccountsQueryOptions() {
  return queryOptions({ queryKey: accountsQueryKey, queryFn: getAccounts });
}

export function useAccounts() {
  return useQuery(getAccountsQueryOptions());
}

/** Accounts a post can go to right now. */
export function canScheduleTo(account: Account): boolean {
  return account.status === 'connected' && account.canPublish;
}
