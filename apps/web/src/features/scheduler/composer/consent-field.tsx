import { useId } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { checkboxClass, FieldError } from '../components/form-controls.tsx';

const musicPolicyUrl = 'https://www.tiktok.com/legal/page/global/music-usage-confirmation/en';
const brandedPolicyUrl = 'https://www.tiktok.com/legal/page/global/bc-policy/en';
const linkClass =
  'font-medium text-brand-700 underline decoration-brand-500/40 underline-offset-2 hover:text-brand-600';

/** TikTok's consent line before the publish button, and the explicit consent it requires. */
export function ConsentField({
  branded,
  checked,
  onChange,
  error,
  checkboxId,
}: {
  branded: boolean;
  checked: boolean;
  onChange: (checked: boolean) => void;
  error: string | undefined;
  checkboxId: string;
}) {
  const { t } = useTranslation();
  const lineId = useId();
  const errorId = useId();
  // Trans puts the translated link text inside these anchors.
  const components = {
    // eslint-disable-next-line jsx-a11y/anchor-has-content
    music: <a href={musicPolicyUrl} target="_blank" rel="noreferrer" className={linkClass} />,
    // eslint-disable-next-line jsx-a11y/anchor-has-content
    branded: <a href={brandedPolicyUrl} target="_blank" rel="noreferrer" className={linkClass} />,
  };

  return (
    <div className="space-y-3">
      <p className="flex gap-2 rounded-xl bg-sky-50 px-3.5 py-3 text-sm text-sky-900">
        <svg
          className="mt-0.5 h-4 w-4 shrink-0"
          viewBox="0 0 24 24"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          aria-hidden="true"
        >
          <path d="M12 8h.01M11 12h1v4h1" strokeLinecap="round" />
          <circle cx="12" cy="12" r="9" />
        </svg>
        {t('scheduler.form.processing')}
      </p>
      <p id={lineId} className="text-sm text-slate-600">
        {branded ? (
          <Trans i18nKey="scheduler.form.consent.lineBranded" components={components} />
        ) : (
          <Trans i18nKey="scheduler.form.consent.line" components={components} />
        )}
      </p>
      <label className="flex cursor-pointer items-start gap-3 text-sm font-medium text-slate-900">
        <input
          id={checkboxId}
          type="checkbox"
          required
          checked={checked}
          onChange={(event) => onChange(event.target.checked)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${lineId} ${errorId}` : lineId}
          className={`${checkboxClass} mt-0.5`}
        />
        {t('scheduler.form.consent.checkbox')}
      </label>
      <FieldError id={errorId}>{error}</FieldError>
    </div>
  );
}
