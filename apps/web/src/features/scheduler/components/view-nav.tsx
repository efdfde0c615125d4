import { useTranslation } from 'react-i18next';
import { NavLink, useSearchParams } from 'react-router';
import { filterParams } from '../post-lists.ts';

// On a phone the three tabs share the width equally, each on one line ('File d'attente' wrapped
// at 390 px when they were sized by their words).
const tabClass = ({ isActive }: { isActive: boolean }) =>
  `flex w-full items-center justify-center whitespace-nowrap rounded-lg px-2 py-1.5 text-sm font-semibold transition sm:px-3.5 ${isActive ? 'bg-white text-slate-900 shadow-sm ring-1 ring-slate-200' : 'text-slate-600 hover:text-slate-900'}`;

/**
 * The scheduler's views as links (each has its own address): 'File d'attente', 'Historique',
 * 'Calendrier'. The account filter follows between the lists; a status belongs to one only.
 */
export function ViewNav() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const accountId = search.get(filterParams.accountId);
  const query = accountId
    ? `?${new URLSearchParams({ [filterParams.accountId]: accountId }).toString()}`
    : '';
  return (
    <nav aria-label={t('scheduler.views.label')}>
      <ul className="flex gap-1 rounded-xl bg-slate-100 p-1 sm:inline-flex">
        <li className="min-w-0 flex-1 sm:flex-none">
          <NavLink to={`/scheduler${query}`} end className={tabClass}>
            {t('scheduler.views.queue')}
          </NavLink>
        </li>
        <li className="min-w-0 flex-1 sm:flex-none">
          <NavLink to={`/scheduler/history${query}`} className={tabClass}>
            {t('scheduler.views.history')}
          </NavLink>
        </li>
        <li className="min-w-0 flex-1 sm:flex-none">
          <NavLink to="/scheduler/calendar" className={tabClass}>
            {t('scheduler.views.calendar')}
          </NavLink>
        </li>
      </ul>
    </nav>
  );
}
