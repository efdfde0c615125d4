import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/ui/alert.tsx';
import type { FormNotice } from './use-schedule-submit.ts';

/** Above the form's fields: a draft saved or refused, or the saved draft the form holds. */
export function DraftNotices({
  notice,
  saveFailed,
  editingDraft,
}: {
  notice: FormNotice;
  saveFailed: boolean;
  editingDraft: boolean;
}) {
  const { t } = useTranslation();
  return (
    <div aria-live="polite" className="empty:hidden">
      {notice === 'draftSaved' && <Alert tone="success">{t('planner.drafts.saved')}</Alert>}
      {notice === 'needsVideo' && <Alert tone="error">{t('planner.drafts.needsVideo')}</Alert>}
      {saveFailed && <Alert tone="error">{t('planner.drafts.failed')}</Alert>}
      {editingDraft && notice === null && <Alert tone="info">{t('planner.drafts.editing')}</Alert>}
    </div>
  );
}
