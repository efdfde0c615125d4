import type { CreatorInfo, PrivacyLevel } from '@cadence/shared/schemas/account';
import { privacyLevels } from '@cadence/shared/schemas/account';
import { useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { privacyLabelKeys } from '../../../lib/privacy-labels.ts';
import type { ScheduleFormState } from './form-state.ts';
import { checkboxClass, FieldError, inputClass, labelClass } from '../components/form-controls.tsx';

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
  'privacyLevel' | 'allowComment' | 'allowDuet' | 'allowStitch' | 'commercialContent' | 'isAigc'
>;

function parsePrivacy(value: string): PrivacyLevel | '' {
  return privacyLevels.find((level) => level === value) ?? '';
}

type Interactions = Pick<ScheduleFormState, 'allowComment' | 'allowDuet' | 'allowStitch'>;

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

/** Comment, duet, stitch: each as the creator allows it on TikTok (disabled there: off here). */
export function InteractionsField({
  creator,
  state,
  onChange,
}: {
  creator: CreatorInfo | undefined;
  state: Interactions;
  onChange: (patch: Partial<Interactions>) => void;
}) {
  const { t } = useTranslation();
  return (
    <fieldset>
      <legend className={labelClass}>{t('scheduler.form.interactions.label')}</legend>
      <div className="flex flex-wrap gap-2">
        {interactions.map(({ name, labelKey, disabledBy }) => {
          const disabled = !creator || creator[disabledBy];
          return (
            <label
              key={name}
              className={`flex items-center gap-2 rounded-lg px-3 py-2 text-sm ring-1 ring-inset ${disabled ? 'cursor-not-allowed bg-slate-50 text-slate-500 ring-slate-200' : 'cursor-pointer bg-white text-slate-800 ring-slate-300 hover:bg-slate-50'}`}
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
  );
}

/** TikTok's Content Sharing Guidelines (tiktok-api.md §6): privacy, interactions, disclosure. */
export function TikTokOptions({
  creator,
  state,
  onChange,
  errors,
  privacyId,
  onUseUsual,
  audited,
  publicAccount,
  inbox,
  optionsNote = null,
}: {
  /** With the privacy levels the form offers (only SELF_ONLY for an unaudited app). */
  creator: CreatorInfo | undefined;
  /** TIKTOK_APP_AUDITED: false explains TikTok's limits on an app it has not reviewed. */
  audited: boolean;
  /** Unaudited app and a public account: TikTok refuses every post. */
  publicAccount: boolean;
  /**
   * 'Send to my TikTok inbox': TikTok's inbox init takes no privacy, interactions or labels
   * (branded content, AI-generated): the creator sets them in the TikTok app, so the form does
   * not ask for them.
   */
  inbox: boolean;
  state: OptionsState;
  onChange: (patch: Partial<OptionsState>) => void;
  errors: { privacyLevel?: string | undefined; commercialContent?: string | undefined };
  privacyId: string;
  /** Fills in the account's saved preferences; absent when it has none. */
  onUseUsual: (() => void) | undefined;
  /** Whose options these are while TikTok says the account cannot post now (OptionsNote). */
  optionsNote?: ReactNode;
}) {
  const { t } = useTranslation();
  const usualHintId = useId();
  const commercialErrorId = useId();
  const commercialHintId = useId();
  const brandedRefusedId = useId();
  const aigcHintId = useId();
  // Ticking 'Branded content' while 'Only me' is chosen is refused, and says why.
  const [brandedRefused, setBrandedRefused] = useState(false);
  const branded = state.commercialContent.enabled && state.commercialContent.brandedContent;
  const { commercialContent } = state;
  const privateChosen = state.privacyLevel === 'SELF_ONLY';
  const privateForBranded = t('errors.brandedContentPrivate');

  return (
    <div className="space-y-5">
      {!audited && (
        <div
          className="space-y-1 rounded-xl bg-amber-50 px-3.5 py-3 text-sm text-amber-950 ring-1 ring-inset ring-amber-200"
          data-testid="unaudited-notice"
        >
          <p className="font-semibold">{t('scheduler.form.unaudited.title')}</p>
          <p>{t('scheduler.form.unaudited.body')}</p>
          {publicAccount && (
            <p className="font-medium text-amber-900">
              {t('scheduler.form.unaudited.publicAccount')}
            </p>
          )}
        </div>
      )}
      {optionsNote}
      {!inbox && (
        <>
          <PrivacyField
            creator={creator}
            value={state.privacyLevel}
            onChange={(privacyLevel) => {
              setBrandedRefused(false);
              onChange({ privacyLevel });
            }}
            error={errors.privacyLevel}
            id={privacyId}
            branded={branded}
            action={
              onUseUsual && (
                <button
                  type="button"
                  onClick={onUseUsual}
                  disabled={!creator}
                  aria-describedby={usualHintId}
                  className="mb-1.5 rounded-md text-sm font-medium text-brand-700 underline decoration-brand-500/40 underline-offset-2 hover:text-brand-600 disabled:cursor-not-allowed disabled:text-slate-400"
                >
                  {t('scheduler.form.privacy.useUsual')}
                </button>
              )
            }
          />
          {onUseUsual && (
            <p id={usualHintId} className="-mt-3.5 text-xs text-slate-500">
              {t('scheduler.form.privacy.useUsualHint')}
            </p>
          )}
          <InteractionsField creator={creator} state={state} onChange={onChange} />
        </>
      )}

      {!inbox && (
        <>
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
                        commercialContent: {
                          ...commercialContent,
                          yourBrand: event.target.checked,
                        },
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
                <label
                  className="grid cursor-pointer grid-cols-[auto_1fr] gap-x-3 text-sm"
                  title={privateChosen ? privateForBranded : undefined}
                >
                  <input
                    type="checkbox"
                    checked={commercialContent.brandedContent}
                    onChange={(event) => {
                      const brandedContent = event.target.checked;
                      // Never change the creator's privacy behind their back: refuse, and say why.
                      if (brandedContent && privateChosen) {
                        setBrandedRefused(true);
                        return;
                      }
                      setBrandedRefused(false);
                      onChange({ commercialContent: { ...commercialContent, brandedContent } });
                    }}
                    aria-describedby={
                      brandedRefused && privateChosen ? brandedRefusedId : undefined
                    }
                    className={`${checkboxClass} row-span-2 mt-0.5`}
                  />
                  <span className="font-medium text-slate-900">
                    {t('scheduler.form.commercial.brandedContent')}
                  </span>
                  <span className="col-start-2 text-xs text-slate-500">
                    {t('scheduler.form.commercial.brandedContentHint')}
                  </span>
                </label>
                <p role="status" className="text-sm font-medium text-red-700 empty:hidden">
                  {brandedRefused && privateChosen && (
                    <span id={brandedRefusedId}>{privateForBranded}</span>
                  )}
                </p>
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

          <label className="grid cursor-pointer grid-cols-[auto_1fr] gap-x-3 rounded-xl px-4 py-3 text-sm ring-1 ring-slate-200">
            <input
              type="checkbox"
              checked={state.isAigc}
              onChange={(event) => onChange({ isAigc: event.target.checked })}
              aria-describedby={aigcHintId}
              className={`${checkboxClass} row-span-2 mt-0.5`}
            />
            <span className="font-medium text-slate-900">{t('scheduler.form.aigc.label')}</span>
            <span id={aigcHintId} className="col-start-2 text-xs text-slate-500">
              {t('scheduler.form.aigc.hint')}
            </span>
          </label>
        </>
      )}
    </div>
  );
}
