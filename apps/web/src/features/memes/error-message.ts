import { ApiError } from '../../lib/api-client.ts';

/**
 * The translation key for a failed meme call: the feature's own message when the server named
 * one (`fields.memes`, a field's `memes.*` key), else a common field message, else the common
 * one; 'Une erreur est survenue' (errors.internal) for anything that is not an API error.
 */
export function errorMessageKey(error: Error): string {
  if (!(error instanceof ApiError)) return 'errors.internal';
  const fieldKeys = Object.values(error.fields);
  const own =
    error.fields.memes ??
    fieldKeys.find((key) => key.startsWith('memes.')) ??
    fieldKeys.find((key) => key.startsWith('errors.'));
  return own ?? error.translationKey;
}
