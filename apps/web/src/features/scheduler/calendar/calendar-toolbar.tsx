import type { TFunction } from 'i18next';
import { Button } from '../../../components/ui/button.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { shiftAnchor, type CalendarView } from './calendar-grid.ts';

const segmentClass = (active: boolean) =>
  `rounded-md px-3 py-1.5 text-sm font-semibold transition ${
    active ? 'bg-white text-slate-900 shadow-sm' : 'text-slate-600 hover:text-slate-900'
  }`;

/**
 * The period's title (with a spinner while it loads), the month/week switch, and the way to the
 * previous period, today, and the next one. `go` changes the address's view or date.
 */
export function CalendarToolbar({
  t,
  title,
  fetching,
  view,
  anchor,
  today,
  go,
}: {
  t: TFunction;
  title: string;
  fetching: boolean;
  view: CalendarView;
  anchor: string;
  today: string;
  go: (next: { view?: CalendarView; date?: string }) => void;
}) {
  return (
    <div className="mb-4 flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
      <div className="flex items-center gap-2">
        <h2
          className="text-lg font-semibold text-slate-900 first-letter:uppercase sm:text-xl"
          aria-live="polite"
        >
          {title}
        </h2>
        {fetching && <Spinner className="h-4 w-4 text-brand-600" />}
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
  );
}
