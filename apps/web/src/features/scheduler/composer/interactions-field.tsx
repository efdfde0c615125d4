import type { CreatorInfo } from '@cadence/shared/schemas/account';
import { useTranslation } from 'react-i18next';
import type { ScheduleFormState } from './form-state.ts';
import { checkboxClass, labelClass } from '../components/form-controls.tsx';

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

type Interactions = Pick<ScheduleFormState, 'allowComment' | 'allowDuet' | 'allowStitch'>;

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
