import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button.tsx';
import { CalendarIcon, PlusIcon } from '../../../components/ui/icons.tsx';

/**
 * Spec §2: an empty-state message when nothing is scheduled; ours also offers the first step,
 * and counts the drafts saved without a time, with the way to them ('Aucune vidéo programmée ·
 * 1 brouillon'): nothing scheduled is not nothing saved.
 */
export function EmptyState({ onCreate, drafts }: { onCreate: () => void; drafts: number }) {
  const { t } = useTranslation();
  return (
    <div className="rounded-2xl border-2 border-dashed border-slate-200 bg-white/60 px-6 py-14 text-center">
      <div className="mx-auto flex h-14 w-14 items-center justify-center rounded-2xl bg-gradient-to-br from-brand-500 to-accent-500 text-white shadow-lg shadow-brand-500/20">
        <CalendarIcon className="h-7 w-7" />
      </div>
      <h2 className="mt-5 text-lg font-semibold text-slate-900">
        {t('scheduler.empty.title')}
        {drafts > 0 && (
          <>
            {' · '}
            <Link
              to="/scheduler/drafts"
              className="text-brand-700 underline underline-offset-2 hover:text-brand-800"
            >
              {t('scheduler.empty.drafts', { count: drafts })}
            </Link>
          </>
        )}
      </h2>
      <p className="mx-auto mt-2 max-w-md text-sm text-slate-500">
        {t('scheduler.empty.description')}
      </p>
      <Button onClick={onCreate} className="mt-6">
        <PlusIcon />
        {t('scheduler.newSchedule')}
      </Button>
    </div>
  );
}
