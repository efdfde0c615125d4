import type { ChangePassword } from '@cadence/shared/schemas/auth';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** Changes the password; the server ends every other session and renews this one's cookie. */
export function changePassword(input: ChangePassword) {
  return apiRequest('/api/auth/change-password', z.unknown(), { method: 'POST', body: input });
}

export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changePassword,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.sessions.all }),
  });
}
