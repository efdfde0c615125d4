import {
  localDateOf,
  localTimeOf,
  nextOccurrence,
  zonedDateTimeToUtc,
} from '@cadence/shared/schedule/planner';

// A post's time as date and time fields hold it, on the clocks of the user's zone.

export interface DateTime {
  /** 'yyyy-MM-dd' */
  date: string;
  /** 'HH:MM' */
  time: string;
}

/**
 * A post's time as the fields show it in `timeZone`; a time already past (a failed or cancelled
 * post) becomes the next occurrence of the same clock time, the likeliest new choice.
 */
export function dateTimeFields(dueAt: string, timeZone: string, now = new Date()): DateTime {
  let due = new Date(dueAt);
  if (due.getTime() <= now.getTime())
    due = nextOccurrence(localTimeOf(due, timeZone), now, timeZone);
  return { date: localDateOf(due, timeZone), time: localTimeOf(due, timeZone) };
}

/** The fields' instant in `timeZone` (ISO 8601), or null when one is empty or malformed. */
export function dateTimeInstant(value: DateTime, timeZone: string): string | null {
  try {
    return zonedDateTimeToUtc(value.date, value.time, timeZone).toISOString();
  } catch {
    return null;
  }
}
