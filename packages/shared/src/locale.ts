import type { Language } from './errors.ts';

/**
 * The Intl locale each language writes its dates and times in, in the web app and the e-mails
 * alike: 'en-GB', not the bare 'en' (US: 'December 1, 2026 at 10:00 AM'), so English reads
 * '1 December 2026 at 10:00' (24-hour clock) wherever it appears. Numbers and plurals keep the
 * bare language: en-GB would write '12.3k' and '3 mins' where the app writes '12.3K' and '3 min'.
 */
const intlLocales = { fr: 'fr-FR', en: 'en-GB' } as const satisfies Record<Language, string>;

export type IntlLocale = (typeof intlLocales)[Language];

/** The Intl locale of `language`'s dates and times: 'fr' → 'fr-FR', 'en' → 'en-GB'. */
export function intlLocale(language: Language): IntlLocale {
  return intlLocales[language];
}
