import type { RequestPasswordReset } from '@cadence/shared/schemas/auth';
import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';

/** Asks for a reset link by mail; the answer is the same whether or not the address has an account. */
export function requestPasswordReset(input: RequestPasswordReset) {
  return apiRequest('/api/auth/request-password-reset', z.unknown(), {
    method: 'POST',
    body: input,
  });
}

export function useRequestPasswordReset() {
  return useMutation({ mutationFn: requestPasswordReset });
}
