import type { DeleteAccountInput } from '@cadence/shared/schemas/user';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** Deletes my account and everything of it; the session ends with it. */
export function deleteAccount(input: DeleteAccountInput) {
  return apiRequest('/api/me/delete', z.unknown(), { method: 'POST', body: input });
}

export function useDeleteAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteAccount,
    onSuccess: () => {
      queryClient.clear();
      queryClient.setQueryData(queryKeys.me, null);
    },
  });
}
