import { memo } from 'react';
import { Link } from 'react-router';
import { postBadge, statusLooks } from '../posts/status-badge.tsx';
import { newScheduleHref, type GridDay } from './calendar-grid.ts';
import type { DayContext } from './calendar-parts.tsx';
import { DroppableCell } from './droppable-cell.tsx';
import { PostChip } from './post-chip.tsx';

/** Chips a day cell shows before '+N'. */
const CHIPS_PER_DAY = 3;

interface MonthProps {
  weeks: GridDay[][];
  context: DayContext;
  /** Phone: dots and a count per day, the day's posts listed under the grid. */
  compact: boolean;
  selectedDay: string | null;
  onSelectDay: (date: string) => void;
}

/** Weeks as rows, Monday first; each day a drop target. */
export const MonthView = memo(function MonthView({
  weeks,
  context,
  compact,
  selectedDay,
  onSelectDay,
}: MonthProps) {
  const firstWeek = weeks[0] ?? [];
  return (
    <div className="overflow-hidden rounded-2xl bg-white shadow-sm ring-1 ring-slate-200">
      <div className="grid grid-cols-7 border-b border-slate-200 bg-slate-50" aria-hidden="true">
        {firstWeek.map((day) => (
          <div
            key={day.date}
            className="px-1 py-2 text-center text-[0.6875rem] font-semibold uppercase tracking-wide text-slate-500"
          >
            {context.format.weekday(day.date)}
          </div>
        ))}
      </div>
      {weeks.map((week, row) => (
        // Rows and cells keyed by place, not date: another month reuses the grid's elements and
        // only rewrites what changed, instead of tearing down and building 42 cells again.
        <div key={row} className="grid grid-cols-7">
          {week.map((day, column) =>
            compact ? (
              <CompactDay
                key={column}
                day={day}
                context={context}
                selected={day.date === selectedDay}
                onSelect={onSelectDay}
              />
            ) : (
              <FullDay key={column} day={day} context={context} onSelect={onSelectDay} />
            ),
          )}
        </div>
      ))}
    </div>
  );
});

// Days of the months around, and days gone by, recede: what is still to come stands out.
const dayTone = (day: GridDay) => (day.inMonth && !day.isPast ? 'bg-white' : 'bg-slate-50/80');

function DayNumber({ day, t }: { day: GridDay; t: DayContext['t'] }) {
  const number = Number(day.date.slice(8));
  return day.isToday ? (
    <span className="inline-flex h-6 min-w-6 items-center justify-center rounded-full bg-brand-600 px-1 text-xs font-bold text-white">
      {number}
      <span className="sr-only"> ({t('calendar.today')})</span>
    </span>
  ) : (
    <span
      className={`inline-flex h-6 min-w-6 items-center justify-center text-xs font-semibold ${day.inMonth ? 'text-slate-700' : 'text-slate-500'}`}
    >
      {number}
    </span>
  );
}

const FullDay = memo(function FullDay({
  day,
  context,
  onSelect,
}: {
  day: GridDay;
  context: DayContext;
  onSelect: (date: string) => void;
}) {
  const { t } = context;
  const dateLabel = context.format.longDate(day.date);
  const posts = context.byDay.get(day.date) ?? [];
  const hidden = posts.length - CHIPS_PER_DAY;
  return (
    <DroppableCell
      date={day.date}
      label={dateLabel}
      className="relative min-h-32 border-b border-r border-slate-100 p-1 [&:nth-child(7n)]:border-r-0"
      idleClassName={dayTone(day)}
      data-date={day.date}
    >
      {!day.isPast && (
        <Link
          to={newScheduleHref(day.date)}
          aria-label={t('calendar.addOn', { date: dateLabel })}
          className="group absolute inset-0 z-0 rounded focus-visible:outline focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-500"
        >
          <span className="absolute right-1 top-1 hidden h-6 w-6 items-center justify-center rounded-full text-brand-600 group-hover:flex group-focus-visible:flex">
            +
          </span>
        </Link>
      )}
      <div className="pointer-events-none relative z-10 mb-1 flex items-center justify-between gap-1">
        <DayNumber day={day} t={t} />
        {posts.length > CHIPS_PER_DAY && (
          // Wrapped under the number in a tablet's narrow cells; there '+N' says it alone.
          <span
            className="hidden whitespace-nowrap text-[0.6875rem] font-medium text-slate-500 lg:inline"
            aria-hidden="true"
          >
            {t('calendar.dayPosts', { count: posts.length })}
          </span>
        )}
      </div>
      <ul className="pointer-events-none relative z-10 space-y-0.5">
        {posts.slice(0, CHIPS_PER_DAY).map((post) => (
          <li key={post.id} className="pointer-events-auto">
            <PostChip post={post} context={context} place="month" />
          </li>
        ))}
      </ul>
      {hidden > 0 && (
        <button
          type="button"
          onClick={() => onSelect(day.date)}
          aria-label={t('calendar.moreLabel', { count: hidden, date: dateLabel })}
          className="relative z-10 mt-0.5 inline-flex min-h-6 min-w-6 items-center justify-center rounded px-1 text-xs font-semibold text-slate-600 hover:bg-slate-100 hover:text-slate-900"
        >
          {t('calendar.more', { count: hidden })}
        </button>
      )}
    </DroppableCell>
  );
});

/** A phone's day: its number and a dot per post (up to four), the whole cell selects the day. */
const CompactDay = memo(function CompactDay({
  day,
  context,
  selected,
  onSelect,
}: {
  day: GridDay;
  context: DayContext;
  selected: boolean;
  onSelect: (date: string) => void;
}) {
  const { t } = context;
  const dateLabel = context.format.longDate(day.date);
  const posts = context.byDay.get(day.date) ?? [];
  return (
    <DroppableCell
      date={day.date}
      label={dateLabel}
      className="border-b border-r border-slate-100 [&:nth-child(7n)]:border-r-0"
      idleClassName={dayTone(day)}
    >
      <button
        type="button"
        onClick={() => onSelect(day.date)}
        aria-pressed={selected}
        data-date={day.date}
        className={`flex h-14 w-full flex-col items-center gap-0.5 pt-1 ${selected ? 'bg-brand-50 ring-2 ring-inset ring-brand-500' : ''}`}
      >
        <span className="sr-only">
          {t('calendar.dayLabel', {
            date: dateLabel,
            posts: t('calendar.dayPosts', { count: posts.length }),
          })}
          {day.isToday && ` (${t('calendar.today')})`}
        </span>
        <span aria-hidden="true">
          <DayNumber day={day} t={t} />
        </span>
        {posts.length > 0 && (
          <span className="flex items-center gap-0.5" aria-hidden="true">
            {posts.slice(0, 4).map((post) => (
              <span
                key={post.id}
                className={`h-1.5 w-1.5 rounded-full ${statusLooks[postBadge(post)].mark}`}
              />
            ))}
            {posts.length > 4 && (
              <span className="text-[0.625rem] font-semibold leading-none text-slate-700">
                {posts.length}
              </span>
            )}
          </span>
        )}
      </button>
    </DroppableCell>
  );
});
