import type { IntlLocale } from '@cadence/shared/locale';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SlotSuggestion } from '../../../components/analytics/slot-suggestion.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { XIcon } from '../../../components/ui/icons.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useLanguage } from '../../../lib/i18n.ts';
import { useSaveSlots } from '../api/planning.ts';
import { FieldError, inputClass, labelClass } from '../components/form-controls.tsx';
import { ZoneNote } from '../components/zone-note.tsx';

interface Slot {
  /** ISO weekday: Monday 1 … Sunday 7. */
  weekday: number;
  time: string;
}

const isoWeekdays = [1, 2, 3, 4, 5, 6, 7] as const;
const workdays = [1, 2, 3, 4, 5];

function weekdayName(weekday: number, locale: IntlLocale, width: 'short' | 'long'): string {
  // 2024-01-01 was a Monday.
  return new Intl.DateTimeFormat(locale, { weekday: width, timeZone: 'UTC' }).format(
    new Date(Date.UTC(2024, 0, weekday, 12)),
  );
}

const byWeekThenTime = (a: Slot, b: Slot) => a.weekday - b.weekday || a.time.localeCompare(b.time);

/** The account's recurring weekly slots: days and a time to add, each slot removable. */
export function PostingSlotsEditor({
  accountId,
  slots,
  timeZone,
}: {
  accountId: string;
  slots: readonly Slot[];
  timeZone: string;
}) {
  const { t } = useTranslation();
  const save = useSaveSlots(accountId);
  const headingId = useId();
  const hintId = useId();
  const replace = (next: Slot[]) => save.mutate(next.sort(byWeekThenTime));
  const add = (added: Slot[]) => replace([...slots, ...added]);

  return (
    <section
      aria-labelledby={headingId}
      aria-describedby={hintId}
      className="space-y-3 rounded-xl bg-slate-50 p-4 ring-1 ring-inset ring-slate-200"
      data-testid="slots-editor"
    >
      <div>
        <h4 id={headingId} className="text-sm font-semibold text-slate-900">
          {t('planner.slots.title')}
        </h4>
        <p id={hintId} className="mt-0.5 text-xs text-slate-600">
          {t('planner.slots.hint')}
        </p>
      </div>
      <SlotList
        slots={slots}
        saving={save.isPending}
        onRemove={(slot) =>
          replace(
            slots.filter((other) => other.weekday !== slot.weekday || other.time !== slot.time),
          )
        }
      />
      <NewSlots timeZone={timeZone} saving={save.isPending} onAdd={add} />
      {save.isError && (
        <p className="text-sm font-medium text-red-700" role="alert">
          {t('planner.slots.saveFailed')}
        </p>
      )}

      <SuggestedSlots accountId={accountId} timeZone={timeZone} onUse={(slot) => add([slot])} />
    </section>
  );
}

/** The saved slots in week order, each with its ✕. */
function SlotList({
  slots,
  saving,
  onRemove,
}: {
  slots: readonly Slot[];
  saving: boolean;
  onRemove: (slot: Slot) => void;
}) {
  const { t } = useTranslation();
  const { locale } = useLanguage();
  const sorted = [...slots].sort(byWeekThenTime);
  if (sorted.length === 0)
    return <p className="text-sm text-slate-600">{t('planner.slots.none')}</p>;
  return (
    <ul className="flex flex-wrap gap-1.5" aria-label={t('planner.slots.listLabel')}>
      {sorted.map((slot) => {
        const words = `${weekdayName(slot.weekday, locale, 'long')} ${slot.time}`;
        return (
          <li
            key={`${slot.weekday}-${slot.time}`}
            className="inline-flex items-center gap-1 rounded-full bg-white py-0.5 pl-2.5 pr-1 text-xs font-medium text-slate-800 ring-1 ring-inset ring-slate-300"
          >
            {weekdayName(slot.weekday, locale, 'short')} {slot.time}
            <button
              type="button"
              onClick={() => onRemove(slot)}
              disabled={saving}
              aria-label={t('planner.slots.remove', { slot: words })}
              className="rounded-full p-1 text-slate-500 hover:bg-slate-100 hover:text-slate-900"
            >
              <XIcon className="h-3 w-3" />
            </button>
          </li>
        );
      })}
    </ul>
  );
}

/** New slots: the days (the work days at first) and one time, added together. */
function NewSlots({
  timeZone,
  saving,
  onAdd,
}: {
  timeZone: string;
  saving: boolean;
  onAdd: (slots: Slot[]) => void;
}) {
  const { t } = useTranslation();
  const timeId = useId();
  const [days, setDays] = useState<number[]>(workdays);
  const [time, setTime] = useState('12:00');
  const [dayError, setDayError] = useState(false);
  return (
    <>
      <DayChoices
        days={days}
        onChange={(next) => {
          setDayError(false);
          setDays(next);
        }}
        error={dayError}
      />
      <div className="flex flex-wrap items-start gap-3">
        <div className="w-36">
          <label htmlFor={timeId} className={labelClass}>
            {t('planner.slots.time')}
          </label>
          <input
            id={timeId}
            type="time"
            value={time}
            onChange={(event) => setTime(event.target.value)}
            aria-describedby={`${timeId}-zone`}
            className={inputClass}
          />
          <ZoneNote id={`${timeId}-zone`} timeZone={timeZone} />
        </div>
        <Button
          variant="secondary"
          className="mt-7"
          disabled={saving || time === ''}
          onClick={() => {
            if (days.length === 0) {
              setDayError(true);
              return;
            }
            onAdd(days.map((weekday) => ({ weekday, time })));
          }}
        >
          {saving && <Spinner className="h-4 w-4" />}
          {t('planner.slots.add')}
        </Button>
      </div>
    </>
  );
}

/** The days of the week as toggles, and 'the work days' in one click. */
function DayChoices({
  days,
  onChange,
  error,
}: {
  days: number[];
  onChange: (days: number[]) => void;
  error: boolean;
}) {
  const { t } = useTranslation();
  const { locale } = useLanguage();
  const daysId = useId();
  const toggle = (weekday: number) =>
    onChange(
      days.includes(weekday) ? days.filter((day) => day !== weekday) : [...days, weekday].sort(),
    );
  return (
    <fieldset aria-describedby={error ? `${daysId}-error` : undefined}>
      <legend className={labelClass}>{t('planner.slots.days')}</legend>
      <div className="flex flex-wrap gap-1.5">
        {isoWeekdays.map((weekday) => {
          const pressed = days.includes(weekday);
          return (
            <button
              key={weekday}
              type="button"
              aria-pressed={pressed}
              onClick={() => toggle(weekday)}
              className={`min-w-11 rounded-lg px-2 py-1.5 text-xs font-semibold ring-1 ring-inset ${pressed ? 'bg-brand-600 text-white ring-brand-600' : 'bg-white text-slate-700 ring-slate-300 hover:bg-slate-100'}`}
            >
              <span aria-hidden="true">{weekdayName(weekday, locale, 'short')}</span>
              <span className="sr-only">{weekdayName(weekday, locale, 'long')}</span>
            </button>
          );
        })}
        <button
          type="button"
          onClick={() => onChange(workdays)}
          className="rounded-lg px-2 py-1.5 text-xs font-semibold text-brand-700 hover:bg-brand-50"
        >
          {t('planner.slots.weekdays')}
        </button>
      </div>
      <FieldError id={`${daysId}-error`}>{error && t('planner.slots.pickDay')}</FieldError>
    </fieldset>
  );
}

/** The best times as slots to add in one click ('Suggéré : mardi 18:00'). */
function SuggestedSlots({
  accountId,
  timeZone,
  onUse,
}: {
  accountId: string;
  timeZone: string;
  onUse: (slot: Slot) => void;
}) {
  return (
    <SlotSuggestion
      accountId={accountId}
      timeZone={timeZone}
      onUse={(slot) =>
        onUse({ weekday: slot.weekday + 1, time: `${String(slot.hour).padStart(2, '0')}:00` })
      }
    />
  );
}
