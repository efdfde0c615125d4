import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client.ts';
import { useErrorText } from '../../../lib/error-text.ts';
import { serverFieldErrors } from './form-errors.ts';

/**
 * The banner over the form after a refused submit: the general message, then the reason. A reason
 * the form shows beside its field (a date already past) is not repeated here: the banner points
 * to the field instead, so each message is said once, where it can be fixed.
 */
export function SchedulingError({ error }: { error: Error | null }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const schedulingError = t('scheduler.errors.schedulingError');
  const atFields =
    error instanceof ApiError &&
    Object.keys(serverFieldErrors(error.fields)).some((field) => field !== 'form');
  const detail = error ? (atFields ? t('scheduler.errors.seeFields') : errorText(error)) : null;
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
