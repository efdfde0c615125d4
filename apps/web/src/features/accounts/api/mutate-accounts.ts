import {
  accountSchema,
  connectResponseSchema,
  type Account,
  type AccountSettings,
} from '@cadence/shared/schemas/account';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

const deleteResponseSchema = z.object({ cancelledPosts: z.number().int() });

/** POST /api/accounts — 409 with `fields.username = 'accounts.errors.duplicate'` for a duplicate. */
export function createAccount(username: string) {
  return apiRequest('/api/accounts', accountSchema, { method: 'POST', body: { username } });
}

/** DELETE /api/accounts/:id — revokes at TikTok and cancels the account's pending posts. */
export function deleteAccount(id: string) {
  return apiRequest(`/api/accounts/${id}`, deleteResponseSchema, { method: 'DELETE' });
}

export function updateAccountSettings(id: string, settings: AccountSettings) {
  return apiRequest(`/api/accounts/${id}/settings`, accountSchema, {
    method: 'PATCH',
    body: settings,
  });
}

/** Asks the server for TikTok's authorize URL (state and PKCE are made server-side). */
export async function startConnect(id: string) {
  return (
    await apiRequest(`/api/accounts/${id}/connect`, connectResponseSchema, { method: 'POST' })
  ).authorizeUrl;
}

function useInvalidatingMutation<TInput, TOutput>(
  mutationFn: (input: TInput) => Promise<TOutput>,
  onSuccess?: (output: TOutput, input: TInput) => void,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    ...(onSuccess && { onSuccess }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.accounts.all }),
  });
}

export const useCreateAccount = () => useInvalidatingMutation(createAccount);

export function useDeleteAccount() {
  const queryClient = useQueryClient();
  // The card goes at once; the refetch that follows confirms it.
  return useInvalidatingMutation(deleteAccount, (_result, id) =>
    queryClient.setQueryData<Account[]>(queryKeys.accounts.all, (accounts) =>
      accounts?.filter((account) => account.id !== id),
    ),
  );
}

export function useUpdateAccountSettings() {
  const queryClient = useQueryClient();
  return useInvalidatingMutation(
    ({ id, settings }: { id: string; settings: AccountSettings }) =>
      updateAccountSettings(id, settings),
    (updated) =>
      queryClient.setQueryData<Account[]>(queryKeys.accounts.all, (accounts) =>
        accounts?.map((account) => (account.id === updated.id ? updated : account)),
      ),
  );
}

/** Starts TikTok's consent flow: the browser leaves for the authorize URL on success. */
export function useConnectAccount() {
  return useMutation({ mutationFn: startConnect });
}
