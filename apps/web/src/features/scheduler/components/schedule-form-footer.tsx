import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';

/** The slide-over's buttons, with the 'uploads running' note the submit button waits for. */
export function ScheduleFormFooter({
  formId,
  uploading,
  pending,
  submitDisabled,
  onCancel,
}: {
  formId: string;
  uploading: boolean;
  pending: boolean;
  submitDisabled: boolean;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="flex w-full flex-wrap items-center justify-end gap-3">
      {uploading && (
        <p
          className="flex w-full items-center gap-2 text-xs text-slate-500 sm:mr-auto sm:w-auto"
          aria-live="polite"
        >
          <Spinner className="h-3.5 w-3.5" />
          {t('scheduler.form.uploadsRunning')}
        </p>
      )}
      <Button variant="secondary" onClick={onCancel}>
        {t('scheduler.form.cancel')}
      </Button>
      <Button
        type="submit"
        form={formId}
        disabled={submitDisabled}
        className="bg-gradient-to-r from-brand-600 to-brand-500 hover:from-brand-700 hover:to-brand-600 disabled:from-slate-300 disabled:to-slate-300"
      >
        {pending && <Spinner className="h-4 w-4" />}
        {pending ? t('scheduler.form.submitting') : t('scheduler.form.submit')}
      </Button>
    </div>
  );
}
