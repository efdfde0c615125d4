import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** The banner's 'resend': the confirmation link again (a few per hour). */
export function resendVerificationEmail() {
  return apiRequest('/api/me/verification-email', z.unknown(), { method: 'POST' });
}

export function useResendVerificationEmail() {
  return useMutation({ mutationFn: resendVerificationEmail });
}

/** Opens a confirmation link (works signed in or out). */
export function verifyEmail(token: string) {
  return apiRequest('/api/me/verify-email', z.unknown(), { method: 'POST', body: { token } });
}

export function useVerifyEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: verifyEmail,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.me }),
  });
}
