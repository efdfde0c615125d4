import {
  MAX_CALENDAR_POSTS,
  calendarSchema,
  type Calendar,
} from '@cadence/shared/schemas/planning';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../../lib/api-client.ts';
import { queryKeys } from '../../../../lib/query-keys.ts';

export interface CalendarRange {
  /** UTC instants, [from, to): midnight to midnight in `timeZone`. */
  from: string;
  to: string;
  timeZone: string;
}

/** GET /api/posts/calendar: the range's posts (up to the server's 1,000) and per-day counts. */
export function getCalendar({ from, to, timeZone }: CalendarRange): Promise<Calendar> {
  const query = new URLSearchParams({ from, to, timeZone, limit: String(MAX_CALENDAR_POSTS) });
  return apiRequest(`/api/posts/calendar?${query.toString()}`, calendarSchema);
}

export function getCalendarQueryOptions(range: CalendarRange) {
  return queryOptions({
    queryKey: queryKeys.calendar(range),
    queryFn: () => getCalendar(range),
    // Going back to a month just seen shows it at once; the live stream and mutations invalidate.
    staleTime: 30_000,
    // The previous month stays on screen while the next one loads: no flash of an empty grid.
    placeholderData: keepPreviousData,
  });
}

export function useCalendar(range: CalendarRange) {
  return useQuery(getCalendarQueryOptions(range));
}
