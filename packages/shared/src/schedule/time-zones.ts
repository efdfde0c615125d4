// IANA zones as the planner and the schemas check them, apart from the planner so that a schema
// needing only a zone (a person's, at sign-up) does not bring the planner's date arithmetic with
// it (the web's first screen loads the person's schema: docs/decisions/037-first-load.md).

// Building a DateTimeFormat is costly (tens of µs); plans call it many times per zone.
const formatters = new Map<string, Intl.DateTimeFormat>();

/** The zone's cached formatter of civil parts; throws RangeError for a zone this runtime lacks. */
export function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** True when `timeZone` is an IANA zone this runtime knows (e.g. 'Europe/Paris', 'UTC'). */
export function isValidTimeZone(timeZone: string): boolean {
  if (timeZone.trim() === '') return false;
  try {
    formatterFor(timeZone);
    return true;
  } catch {
    return false;
  }
}
