import type { Language } from '@cadence/shared/errors';

const locales: Record<Language, string> = { fr: 'fr-FR', en: 'en-GB' };

/** A date and time in the browser's own time zone, in the interface language. */
export function formatDateTime(value: Date | string, language: Language): string {
  return new Intl.DateTimeFormat(locales[language], {
    dateStyle: 'medium',
    timeStyle: 'short',
  }).format(typeof value === 'string' ? new Date(value) : value);
}
