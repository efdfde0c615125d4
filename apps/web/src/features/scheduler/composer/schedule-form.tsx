import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { useKeyText } from '../../../lib/error-text.ts';
import { DraftsPanel } from '../drafts/drafts-panel.tsx';
import { AccountSection } from './account-section.tsx';
import { ConsentField } from './consent-field.tsx';
import { DraftNotices } from './draft-notices.tsx';
import { ScheduleFormFooter } from './schedule-form-footer.tsx';
import { SchedulingError } from './scheduling-error.tsx';
import { TimingSection } from './timing-section.tsx';
import { useScheduleForm, type ScheduleFormProps } from './use-schedule-form.ts';
import { VideosSection } from './videos-section.tsx';

/**
 * The 'Nouvelle programmation' slide-over. It stays mounted while closed so uploads keep
 * running and a closed form reopens as it was left; only a successful submit resets it (spec §4).
 * Closing it, opening a draft over its videos, or leaving the page (open or closed: a link, the
 * tab) while an upload runs asks first ('Abandonner l'envoi ?': useUploadGuard).
 */
export function ScheduleForm(props: ScheduleFormProps) {
  const { open, accounts } = props;
  const { t } = useTranslation();
  const keyText = useKeyText();
  const formId = useId();
  const form = useScheduleForm(props);
  const { state, draft, submission, message } = form;
  const { blockedKey } = form.tiktok;
  // An inbox draft carries no labels: the consent names no Branded Content Policy for it.
  const branded =
    state.delivery !== 'inbox' &&
    state.commercialContent.enabled &&
    state.commercialContent.brandedContent;

  return (
    <>
      <Dialog
        open={open}
        onClose={form.requestClose}
        variant="slide-over"
        title={t('scheduler.form.title')}
        description={t('scheduler.form.description')}
        closeLabel={t('scheduler.form.close')}
        footer={
          <ScheduleFormFooter
            formId={formId}
            uploading={form.uploading}
            pending={submission.pending}
            submitDisabled={submission.submitDisabled}
            blockedReason={blockedKey === null ? null : keyText(blockedKey)}
            onCancel={form.requestClose}
            onSaveDraft={submission.saveAsDraft}
            savingDraft={submission.savingDraft}
          />
        }
      >
        <form id={formId} onSubmit={submission.submit} noValidate className="space-y-8">
          <DraftsPanel
            enabled={open}
            accounts={accounts}
            currentDraftId={draft.savedDraftId}
            onOpen={form.openDraft}
            onDeleted={(id) => form.dispatch({ type: 'draftDeleted', id })}
          />
          <DraftNotices
            notice={form.notice}
            saveFailed={submission.draftFailed}
            editingDraft={draft.savedDraftId !== null}
          />
          <SchedulingError error={submission.error} />
          <VideosSection form={form} />
          <AccountSection form={form} accounts={accounts} accountsLoading={props.accountsLoading} />
          <TimingSection form={form} isPro={props.isPro} />
          <ConsentField
            checkboxId={form.ids.consent}
            branded={branded}
            checked={state.consent}
            onChange={(consent) => form.update({ consent })}
            error={message('consent')}
          />
          {message('form') && <p className="text-sm font-medium text-red-700">{message('form')}</p>}
        </form>
      </Dialog>
      {form.guardDialog}
    </>
  );
}
