// Pieces both views use: the per-account counts against TikTok's daily cap, the list of one day's
// posts, and the link that opens the new-schedule form at a date.
import type { CalendarDay, CalendarPost } from '@cadence/shared/schemas/planning';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PlusIcon } from '../../../components/ui/icons.tsx';
import { newScheduleHref } from './calendar-grid.ts';
import { AccountHandle, PostChip, type ChipContext } from './post-chip.tsx';

/**
 * What every day of a view reads: its posts and caps, formats and words (`t`, passed down rather
 * than a useTranslation per chip). Built once per data change, so memoised days and chips skip
 * re-rendering when nothing of theirs changed.
 */
export interface DayContext extends ChipContext {
  byDay: ReadonlyMap<string, CalendarPost[]>;
  capsByDay: ReadonlyMap<string, CalendarDay[]>;
  dailyCap: number;
}

/** '12/15' per account of the day: the posts that count towards TikTok's cap, against it. */
export function DayCaps({ date, context }: { date: string; context: DayContext }) {
  const { t } = context;
  const accounts = context.capsByDay.get(date) ?? [];
  if (accounts.length === 0) return null;
  const cap = context.dailyCap;
  return (
    <ul className="flex flex-wrap gap-1" aria-label={t('calendar.capTitle', { cap })}>
      {accounts.map((account) => {
        const full = account.towardsCap >= cap;
        const near = !full && account.towardsCap >= cap - 2;
        return (
          <li
            key={account.accountId ?? account.accountUsername}
            className={`inline-flex max-w-full items-baseline gap-1 rounded px-1 text-[0.6875rem] font-medium ring-1 ring-inset ${
              full
                ? 'bg-red-50 text-red-700 ring-red-600/25'
                : near
                  ? 'bg-amber-50 text-amber-800 ring-amber-500/30'
                  : 'bg-slate-50 text-slate-600 ring-slate-300'
            }`}
          >
            <span className="sr-only">
              {t('calendar.capLabel', {
                username: account.accountUsername,
                count: account.towardsCap,
                cap,
              })}
            </span>
            <span aria-hidden="true" className="min-w-0">
              <AccountHandle username={account.accountUsername} />
            </span>
            <span aria-hidden="true" className="shrink-0 tabular-nums">
              {account.towardsCap}/{cap}
            </span>
          </li>
        );
      })}
    </ul>
  );
}

/** 'Programmer ce jour-là': the form at that date (noon, the form's default time). */
export function ScheduleOnDayLink({ date, label }: { date: string; label?: string }) {
  const { t } = useTranslation();
  return (
    <Link
      to={newScheduleHref(date)}
      className="inline-flex items-center gap-1.5 rounded-lg px-2.5 py-1.5 text-sm font-semibold text-brand-700 ring-1 ring-inset ring-brand-200 hover:bg-brand-50"
    >
      <PlusIcon className="h-4 w-4" />
      {label ?? t('calendar.scheduleThatDay')}
    </Link>
  );
}

/** Every post of one day, roomier than in the grid (caption shown), with its caps. */
export function DayPostList({
  date,
  today,
  context,
  place,
  titled = 'posts',
}: {
  date: string;
  today: string;
  context: DayContext;
  place: string;
  /** 'Publications du lundi 23 novembre' under a grid; only the date in a list of days. */
  titled?: 'posts' | 'date';
}) {
  const { t } = context;
  const posts = context.byDay.get(date) ?? [];
  const headingId = `${place}-${date}-heading`;
  return (
    <section
      aria-labelledby={headingId}
      className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200"
    >
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h3 id={headingId} className="font-semibold text-slate-900 first-letter:uppercase">
          {titled === 'posts'
            ? t('calendar.selectedDay', { date: context.format.longDate(date) })
            : context.format.dayMonth(date)}
          {date === today && (
            <span className="ml-2 rounded-full bg-brand-600 px-2 py-0.5 align-middle text-xs font-semibold text-white">
              {t('calendar.today')}
            </span>
          )}
        </h3>
        {date >= today && <ScheduleOnDayLink date={date} />}
      </div>
      <div className="mb-3">
        <DayCaps date={date} context={context} />
      </div>
      {posts.length === 0 ? (
        <p className="text-sm text-slate-500">{t('calendar.emptyDay')}</p>
      ) : (
        <ul className="grid grid-cols-1 gap-1.5 sm:grid-cols-2">
          {posts.map((post) => (
            <li key={post.id}>
              <PostChip post={post} context={context} place={place} wide />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
