import { dateFormatter } from '@cadence/shared/date-format';
import type { Language } from '@cadence/shared/errors';
import { intlLocale } from '@cadence/shared/locale';

/** A date and time in the interface language, on the clocks of `timeZone` (the person's). */
export function formatDateTime(value: Date | string, language: Language, timeZone: string): string {
  return dateFormatter(intlLocale(language), {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone,
  }).format(typeof value === 'string' ? new Date(value) : value);
}

/** '18:30' (24-hour in both languages) on the clocks of `timeZone`. */
export function formatTime(value: Date | string, language: Language, timeZone: string): string {
  return new Intl.DateTimeFormat(intlLocale(language), {
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone,
  }).format(typeof value === 'string' ? new Date(value) : value);
}

/**
 * A civil date 'yyyy-MM-dd' in words: 'jeudi 14 mars', 'mardi 1er juin' ('2027' added when not
 * this year).
 */
export function formatCivilDate(date: string, language: Language, withYear: boolean): string {
  return dateFormatter(intlLocale(language), {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    ...(withYear && { year: 'numeric' }),
    // A civil date has no zone: read and written at UTC midnight, it never shifts a day.
    timeZone: 'UTC',
  }).format(new Date(`${date}T00:00:00Z`));
}
