import type { CreatorInfo } from '@cadence/shared/schemas/account';
import { useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ScheduleFormState } from './form-state.ts';
import { checkboxClass } from '../components/form-controls.tsx';
import { CommercialContentField } from './commercial-content-field.tsx';
import { InteractionsField } from './interactions-field.tsx';
import { PrivacyField } from './privacy-field.tsx';

type OptionsState = Pick<
  ScheduleFormState,
  'privacyLevel' | 'allowComment' | 'allowDuet' | 'allowStitch' | 'commercialContent' | 'isAigc'
>;

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
  // Ticking 'Branded content' while 'Only me' is chosen is refused, and says why.
  const [brandedRefused, setBrandedRefused] = useState(false);
  const branded = state.commercialContent.enabled && state.commercialContent.brandedContent;

  return (
    <div className="space-y-5">
      {!audited && <UnauditedNotice publicAccount={publicAccount} />}
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
          <CommercialContentField
            commercialContent={state.commercialContent}
            onChange={(commercialContent) => onChange({ commercialContent })}
            error={errors.commercialContent}
            privateChosen={state.privacyLevel === 'SELF_ONLY'}
            refused={brandedRefused}
            onRefused={setBrandedRefused}
          />
          <AigcField checked={state.isAigc} onChange={(isAigc) => onChange({ isAigc })} />
        </>
      )}
    </div>
  );
}

/** What TikTok allows an app it has not reviewed (TIKTOK_APP_AUDITED=false). */
function UnauditedNotice({ publicAccount }: { publicAccount: boolean }) {
  const { t } = useTranslation();
  return (
    <div
      className="space-y-1 rounded-xl bg-amber-50 px-3.5 py-3 text-sm text-amber-950 ring-1 ring-inset ring-amber-200"
      data-testid="unaudited-notice"
    >
      <p className="font-semibold">{t('scheduler.form.unaudited.title')}</p>
      <p>{t('scheduler.form.unaudited.body')}</p>
      {publicAccount && (
        <p className="font-medium text-amber-900">{t('scheduler.form.unaudited.publicAccount')}</p>
      )}
    </div>
  );
}

/** TikTok's 'AI-generated content' label. */
function AigcField({
  checked,
  onChange,
}: {
  checked: boolean;
  onChange: (isAigc: boolean) => void;
}) {
  const { t } = useTranslation();
  const hintId = useId();
  return (
    <label className="grid cursor-pointer grid-cols-[auto_1fr] gap-x-3 rounded-xl px-4 py-3 text-sm ring-1 ring-slate-200">
      <input
        type="checkbox"
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
        aria-describedby={hintId}
        className={`${checkboxClass} row-span-2 mt-0.5`}
      />
      <span className="font-medium text-slate-900">{t('scheduler.form.aigc.label')}</span>
      <span id={hintId} className="col-start-2 text-xs text-slate-500">
        {t('scheduler.form.aigc.hint')}
      </span>
    </label>
  );
}
