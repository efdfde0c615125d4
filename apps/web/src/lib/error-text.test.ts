import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from './api-client.ts';
import { errorTextKey } from './error-text.ts';
import { resources } from './i18n.ts';

// Keys count when the strings in use have them (hasText), as in the app.
beforeAll(async () => {
  await i18next.use(initReactI18next).init({ resources, lng: 'fr', fallbackLng: false });
});

describe('errorTextKey', () => {
  it('prefers the message the server filed under the feature, then a field key of the feature', () => {
    const tooMany = new ApiError(429, 'rate_limited', 'busy', {
      stories: 'stories.errors.tooManyRenders',
    });
    expect(errorTextKey(tooMany, 'stories')).toBe('stories.errors.tooManyRenders');
    const unknownVideo = new ApiError(400, 'validation_failed', 'bad', {
      mediaId: 'errors.invalidVideo',
    });
    expect(errorTextKey(unknownVideo, 'memes')).toBe('errors.invalidVideo');
  });

  it('falls back to the code, skips keys French lacks, and says errors.internal for non-API errors', () => {
    const unknownKey = new ApiError(409, 'conflict', 'no', { memes: 'memes.errors.noSuchKey' });
    expect(errorTextKey(unknownKey, 'memes')).toBe('errors.conflict');
    expect(errorTextKey(new ApiError(503, 'whatever', 'x'), 'stories')).toBe('errors.internal');
    expect(errorTextKey(new Error('boom'), 'memes')).toBe('errors.internal');
  });
});
