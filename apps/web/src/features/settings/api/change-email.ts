import { meSchema, type ChangeEmailInput } from '@cadence/shared/schemas/user';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** Asks for a new address: a link goes to it; nothing changes until it is opened. */
export function changeEmail(input: ChangeEmailInput) {
  return apiRequest('/api/me/email', meSchema, { method: 'POST', body: input });
}

export function useChangeEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changeEmail,
    onSuccess: (me) => queryClient.setQueryData(queryKeys.me, me),
  });
}

/** Opens the link sent to the new address (works signed in or out). */
export function confirmEmailChange(token: string) {
  return apiRequest('/api/me/email/confirm', z.object({ email: z.string() }), {
    method: 'POST',
    body: { token },
  });
}

export function useConfirmEmailChange() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: confirmEmailChange,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.me }),
  });
}
