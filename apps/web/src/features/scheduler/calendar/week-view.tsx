import type { CalendarPost } from '@cadence/shared/schemas/planning';
import { memo, useLayoutEffect, useMemo, useRef } from 'react';
import { Link } from 'react-router';
import { PlusIcon } from '../../../components/ui/icons.tsx';
import { localHourOf, newScheduleHref, type GridDay } from './calendar-grid.ts';
import { DayCaps, DayPostList, type DayContext } from './calendar-parts.tsx';
import { DroppableCell } from './droppable-cell.tsx';
import { PostChip } from './post-chip.tsx';

const HOURS = Array.from({ length: 24 }, (_, hour) => hour);
/** Chips an hour cell shows before '+N'. */
const CHIPS_PER_HOUR = 2;
/** Where the working day starts: the hour the week opens scrolled to, unless a post comes earlier. */
const WORKDAY_START = 8;

interface WeekProps {
  days: GridDay[];
  context: DayContext;
  timeZone: string;
  today: string;
  /** Phone: the week as a list of days. */
  compact: boolean;
  onSelectDay: (date: string) => void;
}

/** Seven days: hours as rows on a wide screen (drop on a day and time), a list of days on a phone. */
export const WeekView = memo(function WeekView({
  days,
  context,
  timeZone,
  today,
  compact,
  onSelectDay,
}: WeekProps) {
  if (compact) {
    return (
      <div className="space-y-3">
        {days.map((day) => (
          <DroppableCell
            key={day.date}
            date={day.date}
            label={context.format.longDate(day.date)}
            className="rounded-2xl"
            overClassName="ring-2 ring-brand-400"
            data-date={day.date}
          >
            <DayPostList
              date={day.date}
              today={today}
              context={context}
              place="week"
              titled="date"
            />
          </DroppableCell>
        ))}
      </div>
    );
  }
  return <WeekGrid days={days} context={context} timeZone={timeZone} onSelectDay={onSelectDay} />;
});

const EMPTY: CalendarPost[] = [];

/**
 * The wide week: a header row of days (sticky) over 24 hour rows, in a box of its own that opens
 * scrolled to the working day (08:00), or to the week's first post when it comes earlier.
 */
function WeekGrid({
  days,
  context,
  timeZone,
  onSelectDay,
}: Pick<WeekProps, 'days' | 'context' | 'timeZone' | 'onSelectDay'>) {
  const byHour = useMemo(() => {
    const grouped = new Map<string, CalendarPost[]>();
    for (const day of days) {
      for (const post of context.byDay.get(day.date) ?? []) {
        const key = `${day.date}:${localHourOf(post.dueAt, timeZone)}`;
        const slot = grouped.get(key);
        if (slot) slot.push(post);
        else grouped.set(key, [post]);
      }
    }
    return grouped;
  }, [days, context.byDay, timeZone]);
  const firstHour = useMemo(() => {
    let first = WORKDAY_START;
    for (const key of byHour.keys()) first = Math.min(first, Number(key.slice(11)));
    return first;
  }, [byHour]);

  const scroller = useRef<HTMLDivElement>(null);
  const weekStart = days[0]?.date;
  useLayoutEffect(() => {
    const box = scroller.current;
    const row = box?.querySelector<HTMLElement>(`[data-hour-row="${firstHour}"]`);
    const header = box?.querySelector<HTMLElement>('[data-week-header]');
    if (!box || !row) return;
    box.scrollTop = row.offsetTop - (header?.offsetHeight ?? 0);
    // A new week, or a post earlier than the one shown: not every data change (the person scrolls).
  }, [weekStart, firstHour]);

  return (
    <div
      ref={scroller}
      data-testid="week-scroller"
      // A scroll box is reached from the keyboard even in a week with nothing to focus (all past):
      // WCAG's scrollable-region-focusable (axe), which this rule does not know about.
      // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
      tabIndex={0}
      role="region"
      aria-label={context.t('calendar.week.hours')}
      className="relative max-h-[calc(100vh-9rem)] min-h-[32rem] overflow-y-auto rounded-2xl bg-white shadow-sm ring-1 ring-slate-200 focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-500"
    >
      <div
        data-week-header
        className="sticky top-0 z-20 grid grid-cols-[3rem_repeat(7,minmax(0,1fr))] border-b border-slate-200 bg-slate-50"
      >
        <div />
        {days.map((day) => (
          <WeekDayHeader key={day.date} day={day} context={context} />
        ))}
      </div>
      {HOURS.map((hour) => (
        <div
          key={hour}
          data-hour-row={hour}
          className="grid grid-cols-[3rem_repeat(7,minmax(0,1fr))]"
        >
          <div className="border-b border-r border-slate-100 pr-1.5 pt-1 text-right text-[0.6875rem] tabular-nums text-slate-500">
            {context.format.hour(hour)}
          </div>
          {days.map((day) => (
            <HourSlot
              key={day.date}
              day={day}
              hour={hour}
              posts={byHour.get(`${day.date}:${hour}`) ?? EMPTY}
              context={context}
              onSelectDay={onSelectDay}
            />
          ))}
        </div>
      ))}
    </div>
  );
}

function WeekDayHeader({ day, context }: { day: GridDay; context: DayContext }) {
  const { t } = context;
  const dateLabel = context.format.longDate(day.date);
  const count = context.byDay.get(day.date)?.length ?? 0;
  return (
    <div className="min-w-0 border-l border-slate-200 p-1.5" data-date={day.date}>
      <div className="flex items-center justify-between gap-0.5">
        <span
          // One line whatever the column's width ('Dim. 29' wrapped at 768 px, today's pill wider).
          className={`whitespace-nowrap text-xs font-semibold first-letter:uppercase ${day.isToday ? '-ml-0.5 rounded-full bg-brand-600 px-1.5 py-0.5 text-white' : 'text-slate-700'}`}
        >
          {context.format.shortDay(day.date)}
          {day.isToday && <span className="sr-only"> ({t('calendar.today')})</span>}
        </span>
        {!day.isPast && (
          <Link
            to={newScheduleHref(day.date)}
            aria-label={t('calendar.addOn', { date: dateLabel })}
            // 24×24 at least (WCAG 2.5.8), however small the icon.
            className="inline-flex h-6 w-6 shrink-0 items-center justify-center rounded text-slate-500 hover:bg-white hover:text-brand-700"
          >
            <PlusIcon className="h-3.5 w-3.5" />
          </Link>
        )}
      </div>
      <p className="mt-0.5 text-[0.6875rem] text-slate-500">{t('calendar.dayPosts', { count })}</p>
      <div className="mt-1">
        <DayCaps date={day.date} context={context} />
      </div>
    </div>
  );
}

const HourSlot = memo(function HourSlot({
  day,
  hour,
  posts,
  context,
  onSelectDay,
}: {
  day: GridDay;
  hour: number;
  posts: CalendarPost[];
  context: DayContext;
  onSelectDay: (date: string) => void;
}) {
  const { t } = context;
  const date = context.format.longDate(day.date);
  const time = context.format.hour(hour);
  const hidden = posts.length - CHIPS_PER_HOUR;
  return (
    <DroppableCell
      date={day.date}
      hour={hour}
      label={t('calendar.week.slot', { date, time })}
      data-date={day.date}
      data-hour={hour}
      className="relative min-h-10 min-w-0 border-b border-l border-slate-100 p-0.5"
      idleClassName={day.isPast ? 'bg-slate-50/70' : ''}
    >
      {!day.isPast && (
        // Reached with the day's own '+' from the keyboard: 168 more tab stops would bury the rest.
        <Link
          to={newScheduleHref(day.date, hour)}
          tabIndex={-1}
          aria-label={t('calendar.addAt', { date, time })}
          className="absolute inset-0 z-0 hover:bg-slate-50"
        />
      )}
      <ul className="pointer-events-none relative z-10 space-y-0.5">
        {posts.slice(0, CHIPS_PER_HOUR).map((post) => (
          <li key={post.id} className="pointer-events-auto">
            <PostChip post={post} context={context} place="week" />
          </li>
        ))}
      </ul>
      {hidden > 0 && (
        <button
          type="button"
          onClick={() => onSelectDay(day.date)}
          aria-label={t('calendar.moreLabel', { count: hidden, date })}
          className="relative z-10 inline-flex min-h-6 min-w-6 items-center justify-center rounded px-1 text-[0.6875rem] font-semibold text-slate-600 hover:bg-slate-100"
        >
          {t('calendar.more', { count: hidden })}
        </button>
      )}
    </DroppableCell>
  );
});
