/**
 * Dates in words, the way each language writes them. `Intl.DateTimeFormat` writes the first day
 * of a month '1' in French, where French typography wants the ordinal '1er' ('dimanche 1er
 * novembre', '1er déc.'); every date in words the web app and the e-mails write goes through
 * here, so the rule holds everywhere (eslint refuses a `new Intl.DateTimeFormat` elsewhere whose
 * month is in words or whose dateStyle is not 'short').
 */

import type { IntlLocale } from './locale.ts';

/** What `Intl.DateTimeFormat` offers the app, with the language's typography applied. */
export interface DateFormatter {
  format: (date: Date | number) => string;
  formatRange: (start: Date | number, end: Date | number) => string;
}

/**
 * In French, the day '1' of a date whose month is in words becomes '1er'; numeric dates
 * ('01/11/2026'), other days and other languages are left as they are.
 */
function withFrenchOrdinal<TPart extends Intl.DateTimeFormatPart>(parts: TPart[]): TPart[] {
  const monthInWords = parts.some((part) => part.type === 'month' && !/^\d+$/.test(part.value));
  if (!monthInWords) return parts;
  return parts.map((part) =>
    part.type === 'day' && part.value === '1' ? { ...part, value: '1er' } : part,
  );
}

const join = (parts: readonly Intl.DateTimeFormatPart[]) =>
  parts.map((part) => part.value).join('');

/**
 * `new Intl.DateTimeFormat(locale, options)` that writes '1er' in French (`withFrenchOrdinal`);
 * in any other language it answers exactly what Intl does. `locale`: one of the app's
 * (`intlLocale(language)`), never a bare language ('en' would write US dates).
 */
export function dateFormatter(
  locale: IntlLocale,
  options: Intl.DateTimeFormatOptions,
): DateFormatter {
  const intl = new Intl.DateTimeFormat(locale, options);
  if (new Intl.Locale(intl.resolvedOptions().locale).language !== 'fr') {
    return {
      format: (date) => intl.format(date),
      formatRange: (start, end) => intl.formatRange(start, end),
    };
  }
  return {
    format: (date) => join(withFrenchOrdinal(intl.formatToParts(date))),
    formatRange: (start, end) => join(withFrenchOrdinal(intl.formatRangeToParts(start, end))),
  };
}
