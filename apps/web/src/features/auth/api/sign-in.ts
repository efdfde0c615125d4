import type { Language } from '@cadence/shared/errors';
import { authUserReplySchema } from '@cadence/shared/schemas/auth';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { browserTimeZone } from '../../../lib/time-zone.ts';

export interface SignInInput {
  email: string;
  password: string;
}

export interface SignUpInput extends SignInInput {
  name: string;
  preferredLanguage: Language;
}

export function signIn(input: SignInInput) {
  return apiRequest('/api/auth/sign-in/email', authUserReplySchema, {
    method: 'POST',
    body: input,
  });
}

/** The account starts in the browser's time zone; /settings can change it. */
export function signUp(input: SignUpInput) {
  return apiRequest('/api/auth/sign-up/email', authUserReplySchema, {
    method: 'POST',
    body: { ...input, timeZone: browserTimeZone() },
  });
}

/** Signs in or up; on success the `me` query is refetched so guards see the new session. */
export function useAuthenticate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (
      input: { mode: 'login'; values: SignInInput } | { mode: 'signup'; values: SignUpInput },
    ) => (input.mode === 'login' ? signIn(input.values) : signUp(input.values)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.me }),
  });
}
