import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DateTimeInputs } from './date-time-inputs.tsx';
import type { FieldErrors } from './form-errors.ts';
import type { FormMethod, ScheduleFormState } from './form-state.ts';
import { SpacedFields } from './spaced-fields.tsx';

const methods = [
  {
    value: 'immediate',
    labelKey: 'scheduler.form.method.immediate',
    hintKey: 'scheduler.form.method.immediateHint',
  },
  {
    value: 'scheduled',
    labelKey: 'scheduler.form.method.scheduled',
    hintKey: 'scheduler.form.method.scheduledHint',
  },
  {
    value: 'spaced',
    labelKey: 'scheduler.form.method.spaced',
    hintKey: 'scheduler.form.method.spacedHint',
  },
  {
    value: 'queue',
    labelKey: 'planner.queue.method',
    hintKey: 'planner.queue.methodHint',
  },
] as const satisfies { value: FormMethod; labelKey: string; hintKey: string }[];

type MethodState = Pick<ScheduleFormState, 'publishType' | 'date' | 'time' | 'interval'>;
type MethodIds = {
  date: string;
  time: string;
  count: string;
  value: string;
  startTime: string;
  startDate: string;
};

/**
 * Immediate, at a specific time, at intervals (spec §2, §4, §9), or in the account's next free
 * posting slots ('Add to queue'). Every time entered names its zone; `scheduledExtra` (the best
 * times' suggestions) shows under the date and time.
 */
export function PublishMethodField({
  state,
  onChange,
  errors,
  videoCount,
  isPro,
  ids,
  timeZone,
  scheduledExtra,
}: {
  state: MethodState;
  onChange: (patch: Partial<MethodState>) => void;
  errors: FieldErrors;
  videoCount: number;
  isPro: boolean;
  ids: MethodIds;
  /** The zone the date and times are read in, named next to each time. */
  timeZone: string;
  scheduledExtra?: ReactNode;
}) {
  const { t } = useTranslation();
  const { interval } = state;
  const setInterval = (patch: Partial<ScheduleFormState['interval']>) =>
    onChange({ interval: { ...interval, ...patch } });

  return (
    <fieldset>
      <legend className="sr-only">{t('scheduler.form.method.legend')}</legend>
      <MethodChoices
        value={state.publishType}
        onChange={(publishType) => onChange({ publishType })}
      />
      {state.publishType === 'scheduled' && (
        <ScheduledFields
          state={state}
          onChange={onChange}
          errors={errors}
          ids={ids}
          timeZone={timeZone}
          extra={scheduledExtra}
        />
      )}
      {state.publishType === 'spaced' && (
        <SpacedFields
          interval={interval}
          onChange={setInterval}
          errors={errors}
          videoCount={videoCount}
          isPro={isPro}
          ids={ids}
          timeZone={timeZone}
        />
      )}
    </fieldset>
  );
}

/** The four methods as cards, each with its hint. */
function MethodChoices({
  value,
  onChange,
}: {
  value: FormMethod;
  onChange: (publishType: FormMethod) => void;
}) {
  const { t } = useTranslation();
  const name = useId();
  return (
    <div className="grid gap-2 sm:grid-cols-2">
      {methods.map((method) => {
        const checked = value === method.value;
        return (
          <label
            key={method.value}
            className={`grid cursor-pointer grid-cols-[auto_1fr] gap-x-2.5 rounded-xl px-3 py-2.5 ring-1 ring-inset transition has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-500 ${checked ? 'bg-brand-50 ring-brand-500' : 'bg-white ring-slate-200 hover:bg-slate-50'}`}
          >
            <input
              type="radio"
              name={name}
              value={method.value}
              checked={checked}
              onChange={() => onChange(method.value)}
              aria-label={t(method.labelKey)}
              aria-describedby={`${name}-${method.value}`}
              className="row-span-2 mt-0.5 h-4 w-4 shrink-0 accent-brand-600"
            />
            <span className="text-sm font-semibold text-slate-900">{t(method.labelKey)}</span>
            <span id={`${name}-${method.value}`} className="text-xs text-slate-600">
              {t(method.hintKey)}
            </span>
          </label>
        );
      })}
    </div>
  );
}

/** 'At a specific time': the date and the time, named with its zone. */
function ScheduledFields({
  state,
  onChange,
  errors,
  ids,
  timeZone,
  extra,
}: {
  state: MethodState;
  onChange: (patch: Partial<MethodState>) => void;
  errors: FieldErrors;
  ids: MethodIds;
  timeZone: string;
  extra: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <DateTimeInputs
      className="mt-4 grid grid-cols-2 gap-3"
      date={{
        id: ids.date,
        label: t('scheduler.form.date'),
        value: state.date,
        error: errors.date,
        onChange: (date) => onChange({ date }),
      }}
      time={{
        id: ids.time,
        label: t('scheduler.form.time'),
        value: state.time,
        error: errors.time,
        onChange: (time) => onChange({ time }),
      }}
      timeZone={timeZone}
    >
      {extra && <div className="col-span-2">{extra}</div>}
    </DateTimeInputs>
  );
}
