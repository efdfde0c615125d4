import type { CreatorInfo, PrivacyLevel } from '@cadence/shared/schemas/account';
import { privacyLevels } from '@cadence/shared/schemas/account';
import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { privacyLabelKeys } from '../../../lib/privacy-labels.ts';
import { FieldError, inputClass, labelClass } from '../components/form-controls.tsx';

function parsePrivacy(value: string): PrivacyLevel | '' {
  return privacyLevels.find((level) => level === value) ?? '';
}

/** Who can see the video: TikTok's options for this creator; private is no choice for branded content. */
export function PrivacyField({
  creator,
  value,
  onChange,
  error,
  id,
  branded = false,
  action,
}: {
  creator: CreatorInfo | undefined;
  value: PrivacyLevel | '';
  onChange: (privacyLevel: PrivacyLevel | '') => void;
  error?: string | undefined;
  id: string;
  branded?: boolean;
  /** A control beside the label (the form's 'Use my usual settings'). */
  action?: ReactNode;
}) {
  const { t } = useTranslation();
  const errorId = useId();
  const hintId = useId();
  const options = creator?.privacyLevelOptions ?? [];
  const describedBy =
    [branded ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div>
      <div className="flex flex-wrap items-end justify-between gap-x-3">
        <label htmlFor={id} className={labelClass}>
          {t('scheduler.form.privacy.label')}
        </label>
        {action}
      </div>
      <select
        id={id}
        value={value}
        disabled={!creator}
        onChange={(event) => onChange(parsePrivacy(event.target.value))}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className={`${inputClass} pr-10`}
      >
        <option value="">{t('scheduler.form.privacy.placeholder')}</option>
        {options.map((level) => (
          // TikTok: branded content cannot be private.
          <option key={level} value={level} disabled={branded && level === 'SELF_ONLY'}>
            {t(privacyLabelKeys[level])}
            {branded && level === 'SELF_ONLY'
              ? ` — ${t('scheduler.form.privacy.notForBranded')}`
              : ''}
          </option>
        ))}
      </select>
      {branded && (
        <p id={hintId} className="mt-1.5 text-xs text-slate-600">
          {t('errors.brandedContentPrivate')}
        </p>
      )}
      <FieldError id={errorId}>{error}</FieldError>
    </div>
  );
}
