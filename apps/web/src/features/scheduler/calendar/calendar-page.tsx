import type { CalendarDay, CalendarPost } from '@cadence/shared/schemas/planning';
import { localDateOf, parseDate } from '@cadence/shared/schedule/planner';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useAccounts } from '../../../lib/accounts.ts';
import { useErrorText } from '../../../lib/error-text.ts';
import { RescheduleDialog } from '../posts/reschedule-dialog.tsx';
import { usePostEvents } from '../posts/use-post-events.ts';
import { useTimeZone } from '../../../lib/use-time-zone.ts';
import { useCalendar } from './api/get-calendar.ts';
import { useMovePost } from './api/move-post.ts';
import { CalendarDnd, type DropTarget } from './calendar-dnd.tsx';
import { useCalendarFormat } from './calendar-format.ts';
import {
  monthGrid,
  movedDueAt,
  postsByDay,
  rangeOfDays,
  shiftAnchor,
  weekDays,
  type CalendarView,
} from './calendar-grid.ts';
import { DayPostList, type DayContext } from './calendar-parts.tsx';
import { MonthView } from './month-view.tsx';
import { ChipPreview } from './post-chip.tsx';
import { StatusLegend } from './status-legend.tsx';
import { useMediaQuery } from './use-media-query.ts';
import { WeekView } from './week-view.tsx';
import { ViewLoadFailed, ViewLoading } from '../components/list-states.tsx';
import { ViewNav } from '../components/view-nav.tsx';

type Notice = { tone: 'success' | 'error'; text: string };

const segmentClass = (active: boolean) =>
  `rounded-md px-3 py-1.5 text-sm font-semibold transition ${
    active ? 'bg-white text-slate-900 shadow-sm' : 'text-slate-600 hover:text-slate-900'
  }`;

/**
 * /scheduler/calendar: the month or week of posts in the user's zone (Me.timeZone, else the
 * browser's). View and date live in the URL (`?view=week&date=2026-11-24`) so a reload or a shared
 * link shows the same period.
 */
export function CalendarPage() {
  const { t } = useTranslation();
  const { timeZone, name: zoneName } = useTimeZone();
  const format = useCalendarFormat(timeZone);
  const wide = useMediaQuery('(min-width: 768px)');
  const [params, setParams] = useSearchParams();
  const view: CalendarView = params.get('view') === 'week' ? 'week' : 'month';
  const today = localDateOf(new Date(), timeZone);
  const requested = params.get('date');
  const anchor = requested !== null && parseDate(requested) ? requested : today;
  const [selectedDay, setSelectedDay] = useState<string | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [opened, setOpened] = useState<CalendarPost | null>(null);

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

  const move = useMovePost();
  const errorText = useErrorText('calendar.drop.failed');
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
    () => ({ format, t, byDay, capsByDay, dailyCap, isMovable, onOpen: setOpened, showAccount }),
    [format, t, byDay, capsByDay, dailyCap, isMovable, showAccount],
  );

  const go = (next: { view?: CalendarView; date?: string }) => {
    setSelectedDay(null);
    setParams({ view: next.view ?? view, date: next.date ?? anchor });
  };

  function drop(post: CalendarPost, target: DropTarget) {
    if (target.kind === 'locked') {
      setNotice({ tone: 'error', text: t('calendar.drop.locked') });
      return;
    }
    const dueAt = movedDueAt(post.dueAt, target, timeZone);
    if (dueAt.getTime() === Date.parse(post.dueAt)) return;
    if (dueAt.getTime() <= Date.now()) {
      setNotice({ tone: 'error', text: t('calendar.drop.past') });
      return;
    }
    setNotice(null);
    move.mutate(
      { id: post.id, dueAt: dueAt.toISOString() },
      {
        onSuccess: () =>
          setNotice({ tone: 'success', text: t('calendar.drop.moved', { date: target.label }) }),
        onError: (error) => setNotice({ tone: 'error', text: errorText(error) }),
      },
    );
  }

  // On a phone the month's posts are listed under the grid, for the chosen day (today at first).
  const monthOf = anchor.slice(0, 7);
  const listedDay =
    selectedDay ?? (wide ? null : today.startsWith(monthOf) ? today : `${monthOf}-01`);
  const title =
    view === 'month'
      ? format.month(anchor)
      : format.range(days[0]?.date ?? anchor, days.at(-1)?.date ?? anchor);

  return (
    <>
      <PageHeader title={t('calendar.title')} description={t('calendar.description')} />
      <div className="mb-4">
        <ViewNav />
      </div>

      <div className="mb-4 flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div className="flex items-center gap-2">
          <h2
            className="text-lg font-semibold text-slate-900 first-letter:uppercase sm:text-xl"
            aria-live="polite"
          >
            {title}
          </h2>
          {calendar.isFetching && <Spinner className="h-4 w-4 text-brand-600" />}
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <div
            role="group"
            aria-label={t('calendar.view.label')}
            className="inline-flex rounded-lg bg-slate-100 p-1"
          >
            {(['month', 'week'] as const).map((option) => (
              <button
                key={option}
                type="button"
                aria-pressed={view === option}
                onClick={() => go({ view: option })}
                className={segmentClass(view === option)}
              >
                {t(option === 'month' ? 'calendar.view.month' : 'calendar.view.week')}
              </button>
            ))}
          </div>
          <nav aria-label={t('calendar.nav.label')} className="inline-flex items-center gap-1">
            <Button
              variant="secondary"
              className="!px-2.5"
              aria-label={t(
                view === 'month' ? 'calendar.nav.previousMonth' : 'calendar.nav.previousWeek',
              )}
              onClick={() => go({ date: shiftAnchor(view, anchor, -1) })}
            >
              <span aria-hidden="true">‹</span>
            </Button>
            <Button variant="secondary" onClick={() => go({ date: today })}>
              {t('calendar.nav.today')}
            </Button>
            <Button
              variant="secondary"
              className="!px-2.5"
              aria-label={t(view === 'month' ? 'calendar.nav.nextMonth' : 'calendar.nav.nextWeek')}
              onClick={() => go({ date: shiftAnchor(view, anchor, 1) })}
            >
              <span aria-hidden="true">›</span>
            </Button>
          </nav>
        </div>
      </div>
      <div className="mb-4 flex flex-wrap items-center justify-between gap-x-4 gap-y-2">
        <p className="text-xs text-slate-500">
          {t('scheduler.lists.timeZone', { zone: zoneName })}
        </p>
        <StatusLegend t={t} />
      </div>

      <div aria-live="polite" className="mb-4 empty:hidden">
        {notice && <Alert tone={notice.tone}>{notice.text}</Alert>}
        {calendar.data?.truncated && <Alert tone="info">{t('calendar.truncated')}</Alert>}
      </div>

      {calendar.isPending ? (
        <ViewLoading label={t('calendar.loading')} />
      ) : calendar.isError ? (
        <ViewLoadFailed
          message={t('calendar.loadFailed')}
          onRetry={() => void calendar.refetch()}
        />
      ) : (
        <CalendarDnd
          format={format}
          timeZone={timeZone}
          onDrop={drop}
          renderOverlay={(post) => <ChipPreview post={post} context={context} />}
        >
          <div
            data-testid="calendar"
            data-view={view}
            data-loaded={!calendar.isPlaceholderData}
            aria-busy={calendar.isFetching}
          >
            {view === 'month' ? (
              <MonthView
                weeks={weeks}
                context={context}
                compact={!wide}
                selectedDay={listedDay}
                onSelectDay={setSelectedDay}
              />
            ) : (
              <WeekView
                days={days}
                context={context}
                timeZone={timeZone}
                today={today}
                compact={!wide}
                onSelectDay={setSelectedDay}
              />
            )}
          </div>
          {listedDay !== null && (view === 'month' || wide) && (
            <div className="mt-4">
              <DayPostList date={listedDay} today={today} context={context} place="list" />
            </div>
          )}
        </CalendarDnd>
      )}

      <RescheduleDialog
        post={opened}
        onClose={() => setOpened(null)}
        onDone={() => {
          setOpened(null);
          setNotice({ tone: 'success', text: t('scheduler.notices.rescheduled') });
        }}
      />
    </>
  );
}
