import type { CalendarDay, CalendarPost } from '@cadence/shared/schemas/planning';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useAccounts } from '../../../lib/accounts.ts';
import { usePostEvents } from '../posts/use-post-events.ts';
import { useCalendar } from './api/get-calendar.ts';
import type { CalendarFormat } from './calendar-format.ts';
import {
  monthGrid,
  postsByDay,
  rangeOfDays,
  weekDays,
  type CalendarView,
} from './calendar-grid.ts';
import type { DayContext } from './calendar-parts.tsx';

/**
 * The period's days (the month's weeks, the week's days) and their posts from the server, kept
 * live, with what every day and chip draws from (`context`). `onOpen`: a chip opened.
 */
export function useCalendarPeriod({
  view,
  anchor,
  today,
  timeZone,
  format,
  onOpen,
}: {
  view: CalendarView;
  anchor: string;
  today: string;
  timeZone: string;
  format: CalendarFormat;
  onOpen: (post: CalendarPost) => void;
}) {
  const { t } = useTranslation();
  const weeks = useMemo(() => monthGrid(anchor, today), [anchor, today]);
  const days = useMemo(() => weekDays(anchor, today), [anchor, today]);
  const shown = useMemo(() => (view === 'month' ? weeks.flat() : days), [view, weeks, days]);
  const range = rangeOfDays(shown[0]?.date ?? anchor, shown.at(-1)?.date ?? anchor, timeZone);
  const calendar = useCalendar({ ...range, timeZone });
  // Statuses change on screen as the worker publishes (server-sent events).
  usePostEvents();
  const shownDates = useMemo(() => shown.map((day) => day.date), [shown]);
  const byDay = useMemo(
    () => postsByDay(calendar.data?.posts ?? [], shownDates, timeZone),
    [calendar.data, shownDates, timeZone],
  );
  const capsByDay = useMemo(() => {
    const caps = new Map<string, CalendarDay[]>();
    for (const day of calendar.data?.days ?? []) {
      caps.set(day.date, [...(caps.get(day.date) ?? []), day]);
    }
    return caps;
  }, [calendar.data]);

  const isMovable = useCallback(
    (post: CalendarPost) => post.status === 'pending' && Date.parse(post.dueAt) > Date.now(),
    [],
  );
  const dailyCap = calendar.data?.dailyCap ?? 15;
  const accounts = useAccounts();
  // A one-account creator would read the same '@name' on every chip: it is shown only when the
  // user has several accounts, or posts of another one (since deleted) are in sight.
  const showAccount = useMemo(() => {
    const usernames = new Set((accounts.data ?? []).map((account) => account.username));
    for (const post of calendar.data?.posts ?? []) usernames.add(post.accountUsername);
    return usernames.size > 1;
  }, [accounts.data, calendar.data]);
  // One object per data change: the memoised days and chips re-render only when it changes.
  const context = useMemo<DayContext>(
    () => ({ format, t, byDay, capsByDay, dailyCap, isMovable, onOpen, showAccount }),
    [format, t, byDay, capsByDay, dailyCap, isMovable, onOpen, showAccount],
  );
  return { weeks, days, calendar, context };
}
