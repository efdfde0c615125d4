import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../../lib/error-text.ts';

/** The banner over the form after a refused submit: the general message, then the reason. */
export function SchedulingError({ error }: { error: Error | null }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const schedulingError = t('scheduler.errors.schedulingError');
  const detail = error ? errorText(error) : null;
  return (
    <div aria-live="assertive" className="empty:hidden">
      {error && (
        <div
          role="alert"
          className="rounded-lg bg-red-50 px-4 py-3 text-sm text-red-800 ring-1 ring-inset ring-red-200"
        >
          <p className="font-semibold">{schedulingError}</p>
          {detail && detail !== schedulingError && <p className="mt-1">{detail}</p>}
        </div>
      )}
    </div>
  );
}
