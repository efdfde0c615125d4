import { useTranslation } from 'react-i18next';
import { NavLink, useSearchParams } from 'react-router';
import { filterParams } from '../post-lists.ts';

const tabClass = ({ isActive }: { isActive: boolean }) =>
  `inline-flex items-center rounded-lg px-3.5 py-1.5 text-sm font-semibold transition ${isActive ? 'bg-white text-slate-900 shadow-sm ring-1 ring-slate-200' : 'text-slate-600 hover:text-slate-900'}`;

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
      <ul className="inline-flex gap-1 rounded-xl bg-slate-100 p-1">
        <li>
          <NavLink to={`/scheduler${query}`} end className={tabClass}>
            {t('scheduler.views.queue')}
          </NavLink>
        </li>
        <li>
          <NavLink to={`/scheduler/history${query}`} className={tabClass}>
            {t('scheduler.views.history')}
          </NavLink>
        </li>
        <li>
          <NavLink to="/scheduler/calendar" className={tabClass}>
            {t('scheduler.views.calendar')}
          </NavLink>
        </li>
      </ul>
    </nav>
  );
}
