import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { PlusIcon } from '../../../components/ui/icons.tsx';
import { useSchedulerOutlet } from '../scheduler-outlet.ts';
import { DraftList } from './draft-list.tsx';
import { EmptyList, ViewLoadFailed, ViewLoading } from '../components/list-states.tsx';

/**
 * /scheduler/drafts: what was saved with 'Enregistrer comme brouillon', beside the queue and the
 * history (a saved draft left no trace on the lists). 'Ouvrir' puts the draft in the form, as
 * the form's own 'Brouillons (n)' list does. The drafts come from the page, which draws its first
 * screen with them (schedulerFirstData) for the tabs' count.
 */
export function DraftsView() {
  const { t } = useTranslation();
  const { drafts, accounts, openDraft, openForm } = useSchedulerOutlet();

  let body;
  if (drafts.isPending) {
    body = <ViewLoading label={t('app.loading')} />;
  } else if (drafts.isError) {
    body = (
      <ViewLoadFailed
        message={t('scheduler.lists.draftsLoadFailed')}
        onRetry={() => void drafts.refetch()}
      />
    );
  } else if (drafts.data.length === 0) {
    body = (
      <EmptyList
        title={t('scheduler.lists.draftsEmptyTitle')}
        description={t('scheduler.lists.draftsEmptyDescription')}
      >
        <Button onClick={openForm} className="mt-6">
          <PlusIcon />
          {t('scheduler.newSchedule')}
        </Button>
      </EmptyList>
    );
  } else {
    body = (
      <div className="rounded-2xl bg-white px-3 shadow-sm ring-1 ring-slate-200 sm:px-4">
        <DraftList
          drafts={drafts.data}
          accounts={accounts}
          currentDraftId={null}
          onOpen={openDraft}
        />
      </div>
    );
  }

  return (
    <section aria-labelledby="drafts-heading" className="mt-6">
      <div className="mb-4 min-w-0">
        <h2 id="drafts-heading" className="text-base font-semibold text-slate-900">
          {t('scheduler.lists.draftsTitle')}
        </h2>
        <p className="mt-0.5 text-xs text-slate-500">{t('scheduler.lists.draftsDescription')}</p>
      </div>
      {body}
    </section>
  );
}
