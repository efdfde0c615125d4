import { useTranslation } from 'react-i18next';
import { NavLink, useSearchParams } from 'react-router';
import { useDrafts } from '../api/get-drafts.ts';
import { filterParams } from '../posts/post-lists.ts';

// On a phone the four tabs fill the width two by two: on one line 'Historique' and 'Calendrier'
// spilled out of their tabs at 390 px. From `sm` on they sit in a row, each as wide as its
// words. Should a longer word ever not fit, it wraps inside its tab rather than spilling.
const tabClass = ({ isActive }: { isActive: boolean }) =>
  `flex h-full w-full items-center justify-center rounded-lg px-2 py-1.5 text-center text-sm font-semibold leading-tight transition sm:whitespace-nowrap sm:px-3.5 ${isActive ? 'bg-white text-slate-900 shadow-sm ring-1 ring-slate-200' : 'text-slate-600 hover:text-slate-900'}`;

/**
 * The scheduler's views as links (each has its own address): 'File d'attente', 'Historique',
 * 'Brouillons (n)', 'Calendrier'. The account filter follows between the post lists; a status
 * belongs to one only. The drafts' count says a saved draft is there from every view.
 */
export function ViewNav() {
  const { t } = useTranslation();
  const drafts = useDrafts(true).data?.length ?? 0;
  const [search] = useSearchParams();
  const accountId = search.get(filterParams.accountId);
  const query = accountId
    ? `?${new URLSearchParams({ [filterParams.accountId]: accountId }).toString()}`
    : '';
  return (
    <nav aria-label={t('scheduler.views.label')}>
      <ul className="grid grid-cols-2 gap-1 rounded-xl bg-slate-100 p-1 sm:inline-flex">
        <li className="min-w-0">
          <NavLink to={`/scheduler${query}`} end className={tabClass}>
            {t('scheduler.views.queue')}
          </NavLink>
        </li>
        <li className="min-w-0">
          <NavLink to={`/scheduler/history${query}`} className={tabClass}>
            {t('scheduler.views.history')}
          </NavLink>
        </li>
        <li className="min-w-0">
          <NavLink to="/scheduler/drafts" className={tabClass}>
            {drafts > 0
              ? t('scheduler.views.draftsCount', { n: drafts })
              : t('scheduler.views.drafts')}
          </NavLink>
        </li>
        <li className="min-w-0">
          <NavLink to="/scheduler/calendar" className={tabClass}>
            {t('scheduler.views.calendar')}
          </NavLink>
        </li>
      </ul>
    </nav>
  );
}
