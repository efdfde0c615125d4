import type { CreatorInfo, PrivacyLevel } from '@cadence/shared/schemas/account';
import { privacyLevels } from '@cadence/shared/schemas/account';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { privacyLabelKeys } from '../../../lib/privacy-labels.ts';
import type { ScheduleFormState } from '../form-state.ts';
import { checkboxClass, FieldError, inputClass, labelClass } from './form-controls.tsx';

const interactions = [
  {
    name: 'allowComment',
    labelKey: 'scheduler.form.interactions.comment',
    disabledBy: 'commentDisabled',
  },
  { name: 'allowDuet', labelKey: 'scheduler.form.interactions.duet', disabledBy: 'duetDisabled' },
  {
    name: 'allowStitch',
    labelKey: 'scheduler.form.interactions.stitch',
    disabledBy: 'stitchDisabled',
  },
] as const satisfies {
  name: keyof ScheduleFormState;
  labelKey: string;
  disabledBy: keyof CreatorInfo;
}[];

type OptionsState = Pick<
  ScheduleFormState,
  'privacyLevel' | 'allowComment' | 'allowDuet' | 'allowStitch' | 'commercialContent'
>;

function parsePrivacy(value: string): PrivacyLevel | '' {
  return privacyLevels.find((level) => level === value) ?? '';
}

/** TikTok's Content Sharing Guidelines (tiktok-api.md §6): privacy, interactions, disclosure. */
export function TikTokOptions({
  creator,
  state,
  onChange,
  errors,
  privacyId,
}: {
  creator: CreatorInfo | undefined;
  state: OptionsState;
  onChange: (patch: Partial<OptionsState>) => void;
  errors: { privacyLevel?: string | undefined; commercialContent?: string | undefined };
  privacyId: string;
}) {
  const { t } = useTranslation();
  const privacyErrorId = useId();
  const commercialErrorId = useId();
  const commercialHintId = useId();
  const options = creator?.privacyLevelOptions ?? [];
  const branded = state.commercialContent.enabled && state.commercialContent.brandedContent;
  const { commercialContent } = state;

  return (
    <div className="space-y-5">
      <div>
        <label htmlFor={privacyId} className={labelClass}>
          {t('scheduler.form.privacy.label')}
        </label>
        <select
          id={privacyId}
          value={state.privacyLevel}
          disabled={!creator}
          onChange={(event) => onChange({ privacyLevel: parsePrivacy(event.target.value) })}
          aria-invalid={errors.privacyLevel ? true : undefined}
          aria-describedby={errors.privacyLevel ? privacyErrorId : undefined}
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
        <FieldError id={privacyErrorId}>{errors.privacyLevel}</FieldError>
      </div>

      <fieldset>
        <legend className={labelClass}>{t('scheduler.form.interactions.label')}</legend>
        <div className="flex flex-wrap gap-2">
          {interactions.map(({ name, labelKey, disabledBy }) => {
            const disabled = !creator || creator[disabledBy];
            return (
              <label
                key={name}
                className={`flex items-center gap-2 rounded-lg px-3 py-2 text-sm ring-1 ring-inset ${disabled ? 'cursor-not-allowed bg-slate-50 text-slate-400 ring-slate-200' : 'cursor-pointer bg-white text-slate-800 ring-slate-300 hover:bg-slate-50'}`}
                title={
                  creator?.[disabledBy] ? t('scheduler.form.interactions.disabledHint') : undefined
                }
              >
                <input
                  type="checkbox"
                  checked={state[name] && !disabled}
                  disabled={disabled}
                  onChange={(event) => onChange({ [name]: event.target.checked })}
                  className={checkboxClass}
                />
                {t(labelKey)}
              </label>
            );
          })}
        </div>
        {creator && (creator.commentDisabled || creator.duetDisabled || creator.stitchDisabled) && (
          <p className="mt-1.5 text-xs text-slate-500">
            {t('scheduler.form.interactions.disabledHint')}
          </p>
        )}
      </fieldset>

      <div className="rounded-xl ring-1 ring-slate-200">
        <label className="grid cursor-pointer grid-cols-[1fr_auto] gap-x-4 px-4 py-3">
          <span className="text-sm font-medium text-slate-900">
            {t('scheduler.form.commercial.toggle')}
          </span>
          <input
            type="checkbox"
            role="switch"
            aria-label={t('scheduler.form.commercial.toggle')}
            checked={commercialContent.enabled}
            onChange={(event) =>
              onChange({
                commercialContent: event.target.checked
                  ? { ...commercialContent, enabled: true }
                  : { enabled: false, yourBrand: false, brandedContent: false },
              })
            }
            aria-describedby={
              errors.commercialContent
                ? `${commercialHintId} ${commercialErrorId}`
                : commercialHintId
            }
            className="relative col-start-2 row-span-2 row-start-1 mt-0.5 h-6 w-11 shrink-0 cursor-pointer appearance-none rounded-full bg-slate-300 transition before:absolute before:left-0.5 before:top-0.5 before:h-5 before:w-5 before:rounded-full before:bg-white before:shadow before:transition checked:bg-brand-600 checked:before:translate-x-5 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500"
          />
          <span id={commercialHintId} className="mt-0.5 text-xs text-slate-500">
            {t('scheduler.form.commercial.hint')}
          </span>
        </label>
        {commercialContent.enabled && (
          <div className="space-y-3 border-t border-slate-100 px-4 py-3">
            <label className="grid cursor-pointer grid-cols-[auto_1fr] gap-x-3 text-sm">
              <input
                type="checkbox"
                checked={commercialContent.yourBrand}
                onChange={(event) =>
                  onChange({
                    commercialContent: { ...commercialContent, yourBrand: event.target.checked },
                  })
                }
                className={`${checkboxClass} row-span-2 mt-0.5`}
              />
              <span className="font-medium text-slate-900">
                {t('scheduler.form.commercial.yourBrand')}
              </span>
              <span className="col-start-2 text-xs text-slate-500">
                {t('scheduler.form.commercial.yourBrandHint')}
              </span>
            </label>
            <label className="grid cursor-pointer grid-cols-[auto_1fr] gap-x-3 text-sm">
              <input
                type="checkbox"
                checked={commercialContent.brandedContent}
                onChange={(event) => {
                  const brandedContent = event.target.checked;
                  onChange({
                    commercialContent: { ...commercialContent, brandedContent },
                    // A private choice is no longer allowed: make the person choose again.
                    ...(brandedContent &&
                      state.privacyLevel === 'SELF_ONLY' && { privacyLevel: '' as const }),
                  });
                }}
                className={`${checkboxClass} row-span-2 mt-0.5`}
              />
              <span className="font-medium text-slate-900">
                {t('scheduler.form.commercial.brandedContent')}
              </span>
              <span className="col-start-2 text-xs text-slate-500">
                {t('scheduler.form.commercial.brandedContentHint')}
              </span>
            </label>
            {(commercialContent.yourBrand || commercialContent.brandedContent) && (
              <p className="rounded-lg bg-sky-50 px-3 py-2 text-xs text-sky-900">
                {commercialContent.brandedContent
                  ? t('scheduler.form.commercial.labelPaid')
                  : t('scheduler.form.commercial.labelPromotional')}
              </p>
            )}
            <FieldError id={commercialErrorId}>{errors.commercialContent}</FieldError>
          </div>
        )}
      </div>
    </div>
  );
}
