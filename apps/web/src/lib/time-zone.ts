/** The browser's IANA zone (e.g. 'Europe/Paris'): where the person is, until they choose one. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}
