import { dateFormatter } from '@cadence/shared/date-format';
import type { Language } from '@cadence/shared/errors';
import type { IntlLocale } from '@cadence/shared/locale';
import { zonedDateTimeToUtc } from '@cadence/shared/schedule/planner';

/** 12 345 → "12 345" / "12,345". */
export function formatNumber(value: number, language: Language): string {
  return new Intl.NumberFormat(language).format(value);
}

/** 1 234 567 → "1,2 M" / "1.2M": chart axes. */
export function formatCompact(value: number, language: Language): string {
  return new Intl.NumberFormat(language, { notation: 'compact', maximumFractionDigits: 1 }).format(
    value,
  );
}

/** 0.0834 → "8,3 %" / "8.3%". */
export function formatPercent(value: number, language: Language): string {
  return new Intl.NumberFormat(language, {
    style: 'percent',
    minimumFractionDigits: 1,
    maximumFractionDigits: 1,
  }).format(value);
}

/** +12 / −3 (a change). */
export function formatChange(value: number, language: Language): string {
  return new Intl.NumberFormat(language, { signDisplay: 'exceptZero' }).format(value);
}

/** 2.4 → "×2,4" / "×2.4": a score relative to the usual views. */
export function formatRatio(value: number, language: Language): string {
  return `×${new Intl.NumberFormat(language, { maximumFractionDigits: 1, minimumFractionDigits: 1 }).format(value)}`;
}

/** 'yyyy-MM-dd' → "3 févr." / "3 Feb" (a calendar day, whatever the zone). */
export function formatDay(date: string, locale: IntlLocale, long = false): string {
  const instant = zonedDateTimeToUtc(date, '12:00', 'UTC');
  return dateFormatter(locale, {
    day: 'numeric',
    month: long ? 'long' : 'short',
    ...(long && { year: 'numeric' }),
    timeZone: 'UTC',
  }).format(instant);
}

/** An instant as a date in `timeZone` (the person's). */
export function formatDate(iso: string, locale: IntlLocale, timeZone: string): string {
  return dateFormatter(locale, { dateStyle: 'medium', timeZone }).format(new Date(iso));
}
