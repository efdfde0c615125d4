import type { CalendarPost } from '@cadence/shared/schemas/planning';
import { localDateOf, parseDate } from '@cadence/shared/schedule/planner';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { Alert } from '../../../components/ui/alert.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { RescheduleDialog } from '../posts/reschedule-dialog.tsx';
import { useTimeZone } from '../../../lib/use-time-zone.ts';
import { CalendarDnd } from './calendar-dnd.tsx';
import { useCalendarFormat } from './calendar-format.ts';
import type { CalendarView, GridDay } from './calendar-grid.ts';
import { DayPostList, type DayContext } from './calendar-parts.tsx';
import { CalendarToolbar } from './calendar-toolbar.tsx';
import { MonthView } from './month-view.tsx';
import { ChipPreview } from './post-chip.tsx';
import { StatusLegend } from './status-legend.tsx';
import { useCalendarDrop, type Notice } from './use-calendar-drop.ts';
import { useCalendarPeriod } from './use-calendar-period.ts';
import { useMediaQuery } from './use-media-query.ts';
import { WeekView } from './week-view.tsx';
import { ViewLoadFailed, ViewLoading } from '../components/list-states.tsx';
import { ViewNav } from '../components/view-nav.tsx';

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
  const { weeks, days, calendar, context } = useCalendarPeriod({
    view,
    anchor,
    today,
    timeZone,
    format,
    onOpen: setOpened,
  });
  const drop = useCalendarDrop(timeZone, setNotice);

  const go = (next: { view?: CalendarView; date?: string }) => {
    setSelectedDay(null);
    setParams({ view: next.view ?? view, date: next.date ?? anchor });
  };

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

      <CalendarToolbar
        t={t}
        title={title}
        fetching={calendar.isFetching}
        view={view}
        anchor={anchor}
        today={today}
        go={go}
      />
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
          <PeriodView
            view={view}
            period={{ weeks, days }}
            context={context}
            wide={wide}
            today={today}
            timeZone={timeZone}
            listedDay={listedDay}
            onSelectDay={setSelectedDay}
            loaded={!calendar.isPlaceholderData}
            fetching={calendar.isFetching}
          />
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

/**
 * The month's grid or the week's columns, and under them the listed day's posts (the chosen day,
 * or on a phone the month's default one).
 */
function PeriodView({
  view,
  period: { weeks, days },
  context,
  wide,
  today,
  timeZone,
  listedDay,
  onSelectDay,
  loaded,
  fetching,
}: {
  view: CalendarView;
  period: { weeks: GridDay[][]; days: GridDay[] };
  context: DayContext;
  wide: boolean;
  today: string;
  timeZone: string;
  listedDay: string | null;
  onSelectDay: (date: string) => void;
  loaded: boolean;
  fetching: boolean;
}) {
  return (
    <>
      <div data-testid="calendar" data-view={view} data-loaded={loaded} aria-busy={fetching}>
        {view === 'month' ? (
          <MonthView
            weeks={weeks}
            context={context}
            compact={!wide}
            selectedDay={listedDay}
            onSelectDay={onSelectDay}
          />
        ) : (
          <WeekView
            days={days}
            context={context}
            timeZone={timeZone}
            today={today}
            compact={!wide}
            onSelectDay={onSelectDay}
          />
        )}
      </div>
      {listedDay !== null && (view === 'month' || wide) && (
        <div className="mt-4">
          <DayPostList date={listedDay} today={today} context={context} place="list" />
        </div>
      )}
    </>
  );
}
