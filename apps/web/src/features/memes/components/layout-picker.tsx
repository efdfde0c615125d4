import type { MemeLayout } from '@cadence/shared/schemas/meme';
import type { TranslationKey } from '@cadence/shared/translation-key';
import { useTranslation } from 'react-i18next';

const options: { value: MemeLayout; labelKey: TranslationKey; hintKey: TranslationKey }[] = [
  { value: 'crop', labelKey: 'memes.form.layoutCrop', hintKey: 'memes.form.layoutCropHint' },
  { value: 'blur', labelKey: 'memes.form.layoutBlur', hintKey: 'memes.form.layoutBlurHint' },
];

/** A tiny 9:16 sketch of each layout, so the choice reads at a glance. */
function LayoutSketch({ layout }: { layout: MemeLayout }) {
  return (
    <span
      className="relative flex h-12 w-7 shrink-0 items-center justify-center overflow-hidden rounded-[5px] bg-slate-800 ring-1 ring-slate-900/10"
      aria-hidden="true"
    >
      {layout === 'crop' ? (
        <span className="absolute inset-0 bg-gradient-to-br from-brand-500 to-accent-500" />
      ) : (
        <>
          <span className="absolute inset-0 bg-gradient-to-br from-brand-500/40 to-accent-500/40 blur-[2px]" />
          <span className="relative h-3 w-full bg-gradient-to-br from-brand-500 to-accent-500" />
        </>
      )}
    </span>
  );
}

/** Centre crop or blurred background: two radio cards. */
export function LayoutPicker({
  legend,
  name,
  value,
  onChange,
  disabled = false,
  className = '',
}: {
  legend: string;
  name: string;
  value: MemeLayout;
  onChange: (layout: MemeLayout) => void;
  disabled?: boolean;
  className?: string;
}) {
  const { t } = useTranslation();
  return (
    <fieldset className={className} disabled={disabled}>
      <legend className="text-sm font-medium text-slate-900">{legend}</legend>
      <div className="mt-2 grid gap-2 sm:grid-cols-2">
        {options.map((option) => {
          const checked = value === option.value;
          return (
            <label
              key={option.value}
              className={`flex cursor-pointer items-center gap-3 rounded-lg p-3 ring-1 ring-inset transition has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-500 has-[:disabled]:cursor-not-allowed has-[:disabled]:opacity-60 ${
                checked ? 'bg-brand-50 ring-brand-500' : 'bg-white ring-slate-200 hover:bg-slate-50'
              }`}
            >
              <input
                type="radio"
                name={name}
                value={option.value}
                checked={checked}
                onChange={() => onChange(option.value)}
                className="sr-only"
              />
              <LayoutSketch layout={option.value} />
              <span className="min-w-0">
                <span className="block text-sm font-medium text-slate-900">
                  {t(option.labelKey)}
                </span>
                <span className="block text-xs text-slate-600">{t(option.hintKey)}</span>
              </span>
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
