import { ApiError } from '../../lib/api-client.ts';

/**
 * better-auth's error codes → the spec's messages (§8). An unknown Error shows its own message;
 * anything else the generic one.
 */
const messageKeyByCode: Record<string, string> = {
  USER_ALREADY_EXISTS: 'auth.errors.emailInUse',
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: 'auth.errors.emailInUse',
  INVALID_EMAIL: 'auth.errors.invalidEmail',
  VALIDATION_ERROR: 'auth.errors.invalidEmail',
  PASSWORD_TOO_SHORT: 'auth.errors.weakPassword',
  INVALID_EMAIL_OR_PASSWORD: 'auth.errors.wrongCredentials',
  INVALID_PASSWORD: 'auth.errors.wrongCredentials',
  USER_NOT_FOUND: 'auth.errors.wrongCredentials',
  rate_limited: 'auth.errors.tooManyAttempts',
  validation_failed: 'auth.errors.fillAllFields',
  network: 'errors.network',
};

export type AuthErrorMessage = { key: string } | { text: string };

export function authErrorMessage(error: unknown): AuthErrorMessage {
  if (error instanceof ApiError) {
    const key = messageKeyByCode[error.code];
    if (key) return { key };
    if (error.status >= 500) return { key: 'auth.errors.generic' };
    return error.message ? { text: error.message } : { key: 'auth.errors.generic' };
  }
  if (error instanceof Error && error.message) return { text: error.message };
  return { key: 'auth.errors.generic' };
}
