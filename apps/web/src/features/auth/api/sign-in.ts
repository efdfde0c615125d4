import type { Language } from '@cadence/shared/errors';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest, unchecked } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { browserTimeZone } from '../../../lib/time-zone.ts';

// Signing in or up answers with better-auth's user, which nothing reads: the session cookie is what
// counts, and /api/me (parsed with the shared schema) follows.

export interface SignInInput {
  email: string;
  password: string;
}

export interface SignUpInput extends SignInInput {
  name: string;
  preferredLanguage: Language;
}

export function signIn(input: SignInInput) {
  return apiRequest('/api/auth/sign-in/email', unchecked, { method: 'POST', body: input });
}

/** The account starts in the browser's time zone; /settings can change it. */
export function signUp(input: SignUpInput) {
  return apiRequest('/api/auth/sign-up/email', unchecked, {
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
