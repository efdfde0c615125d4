import { MAX_INTERVAL_VALUE, type IntervalUnit } from '@cadence/shared/schemas/schedule';
import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ProContactLink } from '../../../components/pro-gate.tsx';
import {
  capIntervalCount,
  type FieldErrors,
  type FormMethod,
  type ScheduleFormState,
} from './form-state.ts';
import { checkboxClass, FieldError, inputClass, labelClass } from '../components/form-controls.tsx';
import { StarIcon } from '../components/icons.tsx';
import { ZoneNote } from '../components/zone-note.tsx';

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

const units = [
  { value: 'minutes', labelKey: 'scheduler.form.interval.units.minutes' },
  { value: 'hours', labelKey: 'scheduler.form.interval.units.hours' },
  { value: 'days', labelKey: 'scheduler.form.interval.units.days' },
] as const satisfies { value: IntervalUnit; labelKey: string }[];

type MethodState = Pick<ScheduleFormState, 'publishType' | 'date' | 'time' | 'interval'>;
type MethodIds = {
  date: string;
  time: string;
  count: string;
  value: string;
  startTime: string;
  startDate: string;
};

function parseUnit(value: string): IntervalUnit {
  return units.find((unit) => unit.value === value)?.value ?? 'hours';
}

/** An <input type=number> as an integer; an empty field stays 0 so the schema reports it. */
function toInt(value: string): number {
  const parsed = Number.parseInt(value, 10);
  return Number.isNaN(parsed) ? 0 : parsed;
}

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
  const name = useId();
  const { interval } = state;
  const setInterval = (patch: Partial<ScheduleFormState['interval']>) =>
    onChange({ interval: { ...interval, ...patch } });
  // Spec §4: never more per interval than videos selected. Typing 5 with 2 videos shows 2 at
  // once; an emptied field stays empty while the person types (the schema then reports it).
  const count = capIntervalCount(interval.count, videoCount);
  const setCount = (typed: string) => {
    const capped = capIntervalCount(toInt(typed), videoCount);
    if (capped !== interval.count) setInterval({ count: capped });
  };

  return (
    <fieldset>
      <legend className="sr-only">{t('scheduler.form.method.legend')}</legend>
      <div className="grid gap-2 sm:grid-cols-2">
        {methods.map((method) => {
          const checked = state.publishType === method.value;
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
                onChange={() => onChange({ publishType: method.value })}
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

      {state.publishType === 'scheduled' && (
        <div className="mt-4 grid grid-cols-2 gap-3">
          <div>
            <label htmlFor={ids.date} className={labelClass}>
              {t('scheduler.form.date')}
            </label>
            <input
              id={ids.date}
              type="date"
              value={state.date}
              onChange={(event) => onChange({ date: event.target.value })}
              aria-invalid={errors.date ? true : undefined}
              aria-describedby={errors.date ? `${ids.date}-error` : undefined}
              className={inputClass}
            />
            <FieldError id={`${ids.date}-error`}>{errors.date}</FieldError>
          </div>
          <div>
            <label htmlFor={ids.time} className={labelClass}>
              {t('scheduler.form.time')}
            </label>
            <input
              id={ids.time}
              type="time"
              value={state.time}
              onChange={(event) => onChange({ time: event.target.value })}
              aria-invalid={errors.time ? true : undefined}
              aria-describedby={
                errors.time ? `${ids.time}-zone ${ids.time}-error` : `${ids.time}-zone`
              }
              className={inputClass}
            />
            <ZoneNote id={`${ids.time}-zone`} timeZone={timeZone} />
            <FieldError id={`${ids.time}-error`}>{errors.time}</FieldError>
          </div>
          {scheduledExtra && <div className="col-span-2">{scheduledExtra}</div>}
        </div>
      )}

      {state.publishType === 'spaced' && (
        <div className="mt-4 space-y-4 rounded-xl bg-slate-50 p-4 ring-1 ring-inset ring-slate-200">
          <div className="grid grid-cols-2 gap-3 sm:grid-cols-3">
            <div>
              <label htmlFor={ids.count} className={labelClass}>
                {t('scheduler.form.interval.count')}
              </label>
              <input
                id={ids.count}
                type="number"
                inputMode="numeric"
                min={1}
                max={Math.max(1, videoCount)}
                value={count === 0 ? '' : count}
                onChange={(event) => setCount(event.target.value)}
                onBlur={(event) => setCount(event.target.value)}
                aria-invalid={errors['interval.count'] ? true : undefined}
                aria-describedby={errors['interval.count'] ? `${ids.count}-error` : undefined}
                className={inputClass}
              />
            </div>
            <div>
              <label htmlFor={ids.value} className={labelClass}>
                {t('scheduler.form.interval.value')}
              </label>
              <input
                id={ids.value}
                type="number"
                inputMode="numeric"
                min={1}
                max={MAX_INTERVAL_VALUE}
                value={interval.value === 0 ? '' : interval.value}
                onChange={(event) => setInterval({ value: toInt(event.target.value) })}
                aria-invalid={errors['interval.value'] ? true : undefined}
                aria-describedby={errors['interval.value'] ? `${ids.value}-error` : undefined}
                className={inputClass}
              />
            </div>
            <div className="col-span-2 sm:col-span-1">
              <label htmlFor={`${ids.value}-unit`} className={labelClass}>
                {t('scheduler.form.interval.unit')}
              </label>
              <select
                id={`${ids.value}-unit`}
                value={interval.unit}
                onChange={(event) => setInterval({ unit: parseUnit(event.target.value) })}
                className={`${inputClass} pr-10`}
              >
                {units.map((unit) => (
                  <option key={unit.value} value={unit.value}>
                    {t(unit.labelKey)}
                  </option>
                ))}
              </select>
            </div>
          </div>
          <FieldError id={`${ids.count}-error`}>{errors['interval.count']}</FieldError>
          <FieldError id={`${ids.value}-error`}>{errors['interval.value']}</FieldError>
          <div className="grid grid-cols-2 gap-3">
            <div>
              <label htmlFor={ids.startDate} className={labelClass}>
                {t('planner.startDate')}
              </label>
              <input
                id={ids.startDate}
                type="date"
                value={interval.startDate}
                onChange={(event) => setInterval({ startDate: event.target.value })}
                aria-invalid={errors['interval.startDate'] ? true : undefined}
                aria-describedby={
                  errors['interval.startDate'] ? `${ids.startDate}-error` : undefined
                }
                className={inputClass}
              />
              <FieldError id={`${ids.startDate}-error`}>{errors['interval.startDate']}</FieldError>
            </div>
            <div>
              <label htmlFor={ids.startTime} className={labelClass}>
                {t('scheduler.form.interval.startTime')}
              </label>
              <input
                id={ids.startTime}
                type="time"
                value={interval.startTime}
                onChange={(event) => setInterval({ startTime: event.target.value })}
                aria-invalid={errors['interval.startTime'] ? true : undefined}
                aria-describedby={
                  errors['interval.startTime']
                    ? `${ids.startTime}-zone ${ids.startTime}-error`
                    : `${ids.startTime}-zone`
                }
                className={inputClass}
              />
              <ZoneNote id={`${ids.startTime}-zone`} timeZone={timeZone} />
              <FieldError id={`${ids.startTime}-error`}>{errors['interval.startTime']}</FieldError>
            </div>
          </div>
          <RandomizeField
            checked={interval.randomizeTime && isPro}
            isPro={isPro}
            onChange={(randomizeTime) => setInterval({ randomizeTime })}
            error={errors['interval.randomizeTime']}
          />
        </div>
      )}
    </fieldset>
  );
}

function RandomizeField({
  checked,
  isPro,
  onChange,
  error,
}: {
  checked: boolean;
  isPro: boolean;
  onChange: (checked: boolean) => void;
  error: string | undefined;
}) {
  const { t } = useTranslation();
  const hintId = useId();
  const errorId = useId();
  return (
    <div>
      <label
        className={`grid grid-cols-[auto_1fr] gap-x-3 ${isPro ? 'cursor-pointer' : 'cursor-not-allowed'}`}
      >
        <input
          type="checkbox"
          checked={checked}
          disabled={!isPro}
          onChange={(event) => onChange(event.target.checked)}
          aria-label={t('scheduler.form.interval.randomize')}
          aria-describedby={error ? `${hintId} ${errorId}` : hintId}
          className={`${checkboxClass} row-span-2 mt-0.5`}
        />
        <span
          className={`flex flex-wrap items-center gap-2 text-sm font-medium ${isPro ? 'text-slate-900' : 'text-slate-500'}`}
        >
          {t('scheduler.form.interval.randomize')}
          <ProBadge />
        </span>
        <span id={hintId} className="mt-0.5 text-xs text-slate-500">
          {isPro
            ? t('scheduler.form.interval.randomizeHint')
            : t('scheduler.form.interval.proOnly')}
        </span>
      </label>
      {!isPro && (
        <ProContactLink className="ml-7 mt-1 inline-block text-xs font-semibold text-brand-700 underline underline-offset-2 hover:text-brand-600" />
      )}
      <FieldError id={errorId}>{error}</FieldError>
    </div>
  );
}

function ProBadge() {
  const { t } = useTranslation();
  return (
    <span className="inline-flex items-center gap-1 rounded-full bg-gradient-to-r from-brand-500 to-accent-500 px-2 py-0.5 text-[0.65rem] font-bold uppercase tracking-wide text-white">
      <StarIcon className="h-3 w-3" />
      {t('scheduler.form.interval.pro')}
    </span>
  );
}
