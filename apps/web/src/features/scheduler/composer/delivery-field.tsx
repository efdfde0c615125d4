import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { checkboxClass } from '../components/form-controls.tsx';

/**
 * Publish, or send to the creator's TikTok inbox as a draft they finish in the app (TikTok's
 * video.upload; at most 5 pending inbox shares per 24 h).
 */
export function DeliveryField({
  inbox,
  onChange,
}: {
  inbox: boolean;
  onChange: (inbox: boolean) => void;
}) {
  const { t } = useTranslation();
  const hintId = useId();
  return (
    <div className="space-y-1">
      <label className="flex cursor-pointer items-start gap-3 text-sm font-medium text-slate-900">
        <input
          type="checkbox"
          checked={inbox}
          onChange={(event) => onChange(event.target.checked)}
          aria-describedby={hintId}
          className={`${checkboxClass} mt-0.5`}
        />
        {t('scheduler.form.delivery.inbox')}
      </label>
      <p id={hintId} className="pl-7 text-sm text-slate-600">
        {t(inbox ? 'scheduler.form.delivery.inboxHint' : 'scheduler.form.delivery.directHint')}
      </p>
    </div>
  );
}
