import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client.ts';

/**
 * Turns a failed call into words: a field's own message when the server named one we can
 * translate, else the error code's text; keys we do not know become the generic scheduling error.
 */
export function useErrorText(fallbackKey = 'scheduler.errors.schedulingError') {
  const { t, i18n } = useTranslation();
  const known = useCallback(
    (key: string | undefined) => key !== undefined && i18n.exists(key),
    [i18n],
  );

  return useCallback(
    (error: unknown): string => {
      if (!(error instanceof ApiError)) return t(fallbackKey);
      const fieldKey = Object.values(error.fields).find((key) => known(key));
      if (fieldKey) return t(fieldKey);
      if (
        error.code === 'network' ||
        error.code === 'pro_required' ||
        error.code === 'rate_limited'
      )
        return t(error.translationKey);
      return t(fallbackKey);
    },
    [t, known, fallbackKey],
  );
}

/** A translation key from the server shown as is when we have it, else the generic text. */
export function useKeyText(fallbackKey = 'scheduler.errors.schedulingError') {
  const { t, i18n } = useTranslation();
  return useCallback(
    (key: string) => (i18n.exists(key) ? t(key) : t(fallbackKey)),
    [t, i18n, fallbackKey],
  );
}
