import type { IntlLocale } from '@cadence/shared/locale';

/** The browser's IANA zone (e.g. 'Europe/Paris'): where the person is, until they choose one. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/**
 * The city an IANA zone is named after ('Europe/Paris' → 'Paris', 'America/New_York' →
 * 'New York'); null for zones that name no place ('UTC', 'Etc/GMT-3').
 */
export function timeZoneCity(timeZone: string): string | null {
  const [area, ...rest] = timeZone.split('/');
  const city = rest.at(-1);
  if (!city || area === 'Etc') return null;
  return city.replace(/_/g, ' ');
}

/**
 * The zone's name or offset as Intl writes it in `locale`: 'UTC+3', 'GMT+3' for zones without a
 * city (`shortGeneric`, the default); 'UTC−5' for New York with `shortOffset`.
 */
export function timeZoneOffsetName(
  timeZone: string,
  locale: IntlLocale,
  at = new Date(),
  style: 'shortGeneric' | 'shortOffset' = 'shortGeneric',
): string {
  const parts = new Intl.DateTimeFormat(locale, { timeZone, timeZoneName: style });
  return parts.formatToParts(at).find((part) => part.type === 'timeZoneName')?.value ?? timeZone;
}
