import type { Language } from '@cadence/shared/errors';
import type { TranslationKey } from '@cadence/shared/translation-key';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from './api-client.ts';
import { hasText, useLanguage } from './i18n.ts';
import type { UploadProblem } from './upload.ts';

/** A feature whose API refusals may carry the feature's own message under `fields.<feature>`. */
export type ErrorTextFeature = 'memes' | 'stories';

/**
 * The translation key for a failed call of a feature: the feature's own message when the server
 * named one (`fields.memes`, or a field's `memes.*` key), else a common field message
 * (`errors.*`), else the error code's text; 'Une erreur est survenue' (errors.internal) for
 * anything that is not an API error. Keys French lacks are skipped, so a user never sees a raw key.
 */
export function errorTextKey(error: Error, feature: ErrorTextFeature): TranslationKey {
  if (!(error instanceof ApiError)) return 'errors.internal';
  const fieldKeys = Object.values(error.fields).filter(hasText);
  const named = error.fields[feature];
  const own =
    (named !== undefined && hasText(named) ? named : undefined) ??
    fieldKeys.find((key) => key.startsWith(`${feature}.`)) ??
    fieldKeys.find((key) => key.startsWith('errors.'));
  return own ?? error.translationKey;
}

/** The codes whose own text tells the user what to do, whatever the screen. */
const actionableCodes: ReadonlySet<string> = new Set(['network', 'pro_required', 'rate_limited']);

/**
 * Turns a failed call into words: a field's own message when the server named one we can
 * translate, else the error code's text when it says what to do; anything else becomes
 * `fallbackKey` (the screen's generic error).
 */
export function useErrorText(fallbackKey: TranslationKey = 'scheduler.errors.schedulingError') {
  const { t } = useTranslation();
  return useCallback(
    (error: unknown): string => {
      if (!(error instanceof ApiError)) return t(fallbackKey);
      const fieldKey = Object.values(error.fields).find(hasText);
      if (fieldKey) return t(fieldKey);
      if (actionableCodes.has(error.code)) return t(error.translationKey);
      return t(fallbackKey);
    },
    [t, fallbackKey],
  );
}

/** A translation key from the server shown as is when we have it, else the generic text. */
export function useKeyText(fallbackKey: TranslationKey = 'scheduler.errors.schedulingError') {
  const { t } = useTranslation();
  return useCallback((key: string) => t(hasText(key) ? key : fallbackKey), [t, fallbackKey]);
}

/** better-auth's error codes (and ours on the auth screens) → the spec's messages (§8). */
const authKeyByCode: Partial<Record<string, TranslationKey>> = {
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

export type AuthErrorMessage = { key: TranslationKey } | { text: string };

/**
 * An auth screen's error: the translation key the server gave for the first field at fault, else
 * the code's message; an unknown 4xx or Error shows its own message; anything else the generic one.
 */
export function authErrorMessage(error: unknown): AuthErrorMessage {
  if (error instanceof ApiError) {
    // Cadence's own refusals name the field at fault with a translation key: the most precise.
    const fieldKey = Object.values(error.fields).find(hasText);
    if (fieldKey) return { key: fieldKey };
    const key = authKeyByCode[error.code];
    if (key) return { key };
    if (error.status >= 500) return { key: 'auth.errors.generic' };
    return error.message ? { text: error.message } : { key: 'auth.errors.generic' };
  }
  if (error instanceof Error && error.message) return { text: error.message };
  return { key: 'auth.errors.generic' };
}

/** The sentence of each reason an upload stopped for. */
const rejectionKey = (reason: UploadProblem): TranslationKey => `media.rejected.${reason}`;

/** TikTok's own ceiling, shown when the server's is not known yet. */
const DEFAULT_MAX_BYTES = 4 * 1024 ** 3;

/**
 * '4 Go' / '4 GB', '500 Mo' / '500 MB', '12 ko' / '12 kB' in the current language (binary units,
 * as disks count); a tenth below 100 ('1,2 Go'), none above ('412 Mo', not '412,3 Mo').
 */
export function formatFileSize(bytes: number, language: Language): string {
  const gib = bytes / 1024 ** 3;
  const mib = bytes / 1024 ** 2;
  const [value, unit] =
    gib >= 1 ? [gib, 'gigabyte'] : mib >= 1 ? [mib, 'megabyte'] : [bytes / 1024, 'kilobyte'];
  return new Intl.NumberFormat(language, {
    style: 'unit',
    unit,
    maximumFractionDigits: value < 100 ? 1 : 0,
  }).format(value);
}

/**
 * The sentences explaining why an upload failed: each reason the server gave, translated, or the
 * network message when it gave none (the connection dropped for good).
 */
export function useUploadProblems(): (
  rejection: readonly UploadProblem[] | null,
  maxBytes: number | null,
) => string[] {
  const { t } = useTranslation();
  const { language } = useLanguage();
  return useCallback(
    (rejection, maxBytes) =>
      rejection && rejection.length > 0
        ? rejection.map((reason) =>
            t(rejectionKey(reason), {
              max: formatFileSize(maxBytes ?? DEFAULT_MAX_BYTES, language),
            }),
          )
        : [t('media.networkError')],
    [t, language],
  );
}
