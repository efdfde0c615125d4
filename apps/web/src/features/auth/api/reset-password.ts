import type { ResetPassword } from '@cadence/shared/schemas/auth';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** Sets a new password with a reset link's token; every session of the account ends. */
export function resetPassword(input: ResetPassword) {
  return apiRequest('/api/auth/reset-password', z.unknown(), { method: 'POST', body: input });
}

export function useResetPassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resetPassword,
    // A person signed in on this browser was signed out with every other session.
    onSuccess: () => {
      queryClient.clear();
      queryClient.setQueryData(queryKeys.me, null);
    },
  });
}
