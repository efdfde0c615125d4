import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api-client.ts';
import { authErrorMessage } from '../../lib/error-text.ts';
import { resources } from '../../lib/i18n.ts';

// Keys count when the strings in use have them (hasText), as in the app.
beforeAll(async () => {
  await i18next.use(initReactI18next).init({ resources, lng: 'fr', fallbackLng: false });
});

describe('authErrorMessage', () => {
  // The server validates sign-up and sign-in with the shared schemas and names the field at
  // fault: that sentence, not 'fill all fields', is what the person must read.
  it("shows the server's key for the first field at fault", () => {
    const error = new ApiError(400, 'validation_failed', 'Invalid request', {
      email: 'auth.errors.invalidEmail',
      password: 'auth.errors.weakPassword',
    });
    expect(authErrorMessage(error)).toEqual({ key: 'auth.errors.invalidEmail' });
    const tooManySignUps = new ApiError(429, 'rate_limited', 'Too many', {
      _: 'auth.errors.tooManySignUps',
    });
    expect(authErrorMessage(tooManySignUps)).toEqual({ key: 'auth.errors.tooManySignUps' });
  });

  it("maps better-auth's codes and hides server failures behind the generic sentence", () => {
    expect(authErrorMessage(new ApiError(401, 'INVALID_EMAIL_OR_PASSWORD', 'x'))).toEqual({
      key: 'auth.errors.wrongCredentials',
    });
    expect(authErrorMessage(new ApiError(429, 'rate_limited', 'x'))).toEqual({
      key: 'auth.errors.tooManyAttempts',
    });
    expect(authErrorMessage(new ApiError(502, 'internal', 'Bad gateway'))).toEqual({
      key: 'auth.errors.generic',
    });
  });
});
