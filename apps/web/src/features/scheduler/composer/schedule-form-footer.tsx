import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';

/**
 * The slide-over's buttons, with the 'uploads running' note the submit button waits for,
 * 'Enregistrer comme brouillon' (the form kept without a time), and the reason the submit button
 * is disabled when TikTok's guidelines say so (shown beside it and on hover).
 */
export function ScheduleFormFooter({
  formId,
  uploading,
  pending,
  submitDisabled,
  blockedReason,
  onCancel,
  onSaveDraft,
  savingDraft,
}: {
  formId: string;
  uploading: boolean;
  pending: boolean;
  submitDisabled: boolean;
  blockedReason: string | null;
  onCancel: () => void;
  onSaveDraft: () => void;
  savingDraft: boolean;
}) {
  const { t } = useTranslation();
  const reasonId = useId();
  return (
    <div className="flex w-full flex-wrap items-center justify-end gap-2 sm:gap-3">
      {uploading && (
        <p
          className="flex w-full items-center gap-2 text-xs text-slate-500 sm:mr-auto sm:w-auto"
          aria-live="polite"
        >
          <Spinner className="h-3.5 w-3.5" />
          {t('scheduler.form.uploadsRunning')}
        </p>
      )}
      {blockedReason !== null && (
        <p id={reasonId} className="w-full text-sm font-medium text-amber-800" aria-live="polite">
          {blockedReason}
        </p>
      )}
      <Button variant="ghost" onClick={onCancel}>
        {t('scheduler.form.cancel')}
      </Button>
      <Button
        variant="secondary"
        onClick={onSaveDraft}
        disabled={uploading || savingDraft}
        className="flex-1 sm:flex-none"
      >
        {savingDraft && <Spinner className="h-4 w-4" />}
        {savingDraft ? t('planner.drafts.saving') : t('planner.drafts.save')}
      </Button>
      <Button
        type="submit"
        form={formId}
        disabled={submitDisabled || blockedReason !== null}
        title={blockedReason ?? undefined}
        aria-describedby={blockedReason !== null ? reasonId : undefined}
        className="w-full bg-gradient-to-r from-brand-600 to-brand-500 hover:from-brand-700 hover:to-brand-600 disabled:from-slate-300 disabled:to-slate-300 sm:w-auto"
      >
        {pending && <Spinner className="h-4 w-4" />}
        {pending ? t('scheduler.form.submitting') : t('scheduler.form.submit')}
      </Button>
    </div>
  );
}
