// IANA zones as the planner and the schemas check them, apart from the planner so that a schema
// needing only a zone (a person's, at sign-up) does not bring the planner's date arithmetic with
// it (the web's first screen loads the person's schema: docs/decisions/037-first-load.md).

// Building a DateTimeFormat is costly (tens of µs); plans and statistics call one many times per
// zone. One cache per options object (callers pass a module constant), then per zone.
const formattersByOptions = new WeakMap<
  Intl.DateTimeFormatOptions,
  Map<string, Intl.DateTimeFormat>
>();

/**
 * The cached en-US formatter of `timeZone` with `options`, which must be a constant object (the
 * cache is keyed on it); throws RangeError for a zone this runtime lacks.
 */
export function zonedFormatter(
  timeZone: string,
  options: Intl.DateTimeFormatOptions,
): Intl.DateTimeFormat {
  let formatters = formattersByOptions.get(options);
  if (!formatters) {
    formatters = new Map();
    formattersByOptions.set(options, formatters);
  }
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', { ...options, timeZone });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

const civilParts: Intl.DateTimeFormatOptions = {
  hourCycle: 'h23',
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  second: 'numeric',
};

/** The zone's cached formatter of civil parts; throws RangeError for a zone this runtime lacks. */
export function formatterFor(timeZone: string): Intl.DateTimeFormat {
  return zonedFormatter(timeZone, civilParts);
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
