import { MAX_INTERVAL_VALUE, type IntervalUnit } from '@cadence/shared/schemas/schedule';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { ProContactLink } from '../../../components/pro-gate.tsx';
import type { FieldErrors } from './form-errors.ts';
import { capIntervalCount, type ScheduleFormState } from './form-state.ts';
import { checkboxClass, FieldError, inputClass, labelClass } from '../components/form-controls.tsx';
import { StarIcon } from '../components/icons.tsx';
import { DateTimeInputs } from './date-time-inputs.tsx';

const units = [
  { value: 'minutes', labelKey: 'scheduler.form.interval.units.minutes' },
  { value: 'hours', labelKey: 'scheduler.form.interval.units.hours' },
  { value: 'days', labelKey: 'scheduler.form.interval.units.days' },
] as const satisfies { value: IntervalUnit; labelKey: string }[];

type Interval = ScheduleFormState['interval'];
type SpacedIds = { count: string; value: string; startTime: string; startDate: string };

function parseUnit(value: string): IntervalUnit {
  return units.find((unit) => unit.value === value)?.value ?? 'hours';
}

/** An <input type=number> as an integer; an empty field stays 0 so the schema reports it. */
function toInt(value: string): number {
  const parsed = Number.parseInt(value, 10);
  return Number.isNaN(parsed) ? 0 : parsed;
}

/**
 * 'At intervals' (spec §4, §9): how many videos per interval, the interval, and the first batch's
 * day and time (named with its zone), then the Pro option to vary the times.
 */
export function SpacedFields({
  interval,
  onChange,
  errors,
  videoCount,
  isPro,
  ids,
  timeZone,
}: {
  interval: Interval;
  onChange: (patch: Partial<Interval>) => void;
  errors: FieldErrors;
  videoCount: number;
  isPro: boolean;
  ids: SpacedIds;
  timeZone: string;
}) {
  return (
    <div className="mt-4 space-y-4 rounded-xl bg-slate-50 p-4 ring-1 ring-inset ring-slate-200">
      <IntervalFields
        interval={interval}
        onChange={onChange}
        errors={errors}
        videoCount={videoCount}
        ids={ids}
      />
      <StartFields
        interval={interval}
        onChange={onChange}
        errors={errors}
        ids={ids}
        timeZone={timeZone}
      />
      <RandomizeField
        checked={interval.randomizeTime && isPro}
        isPro={isPro}
        onChange={(randomizeTime) => onChange({ randomizeTime })}
        error={errors['interval.randomizeTime']}
      />
    </div>
  );
}

/** How many videos go out together, and every how many minutes, hours or days. */
function IntervalFields({
  interval,
  onChange: setInterval,
  errors,
  videoCount,
  ids,
}: {
  interval: Interval;
  onChange: (patch: Partial<Interval>) => void;
  errors: FieldErrors;
  videoCount: number;
  ids: SpacedIds;
}) {
  const { t } = useTranslation();
  // Spec §4: never more per interval than videos selected. Typing 5 with 2 videos shows 2 at
  // once; an emptied field stays empty while the person types (the schema then reports it).
  const count = capIntervalCount(interval.count, videoCount);
  const setCount = (typed: string) => {
    const capped = capIntervalCount(toInt(typed), videoCount);
    if (capped !== interval.count) setInterval({ count: capped });
  };
  return (
    <>
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
    </>
  );
}

/** The first batch's day and time, read in the person's zone. */
function StartFields({
  interval,
  onChange: setInterval,
  errors,
  ids,
  timeZone,
}: {
  interval: Interval;
  onChange: (patch: Partial<Interval>) => void;
  errors: FieldErrors;
  ids: SpacedIds;
  timeZone: string;
}) {
  const { t } = useTranslation();
  return (
    <DateTimeInputs
      className="grid grid-cols-2 gap-3"
      date={{
        id: ids.startDate,
        label: t('planner.startDate'),
        value: interval.startDate,
        error: errors['interval.startDate'],
        onChange: (startDate) => setInterval({ startDate }),
      }}
      time={{
        id: ids.startTime,
        label: t('scheduler.form.interval.startTime'),
        value: interval.startTime,
        error: errors['interval.startTime'],
        onChange: (startTime) => setInterval({ startTime }),
      }}
      timeZone={timeZone}
    />
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
