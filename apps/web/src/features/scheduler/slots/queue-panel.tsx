import type { IntlLocale } from '@cadence/shared/locale';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SlotSuggestion } from '../../../components/analytics/slot-suggestion.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { XIcon } from '../../../components/ui/icons.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useLanguage } from '../../../lib/i18n.ts';
import { usePostingSlots, useSaveSlots } from '../api/planning.ts';
import { FieldError, inputClass, labelClass } from '../components/form-controls.tsx';
import { useZonedFormat } from './plan-preview.tsx';
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

/**
 * 'Add to queue': where the selected videos will go (the account's next free posting slots) and
 * the account's weekly slots, edited right here where the choice is made (decision 027).
 */
export function QueuePanel({ accountId, videoCount }: { accountId: string; videoCount: number }) {
  const { t } = useTranslation();
  const slots = usePostingSlots(accountId);
  const headingId = useId();
  if (accountId === '') {
    return <p className="text-sm text-slate-600">{t('planner.queue.chooseAccount')}</p>;
  }
  if (!slots.data) {
    return (
      <p className="flex items-center gap-2 text-sm text-slate-500" role="status">
        <Spinner className="h-4 w-4" />
        {t('app.loading')}
      </p>
    );
  }
  const { timeZone, nextFree, dailyCap } = slots.data;
  return (
    <div className="space-y-4">
      <section
        aria-labelledby={headingId}
        className="rounded-xl bg-white p-4 ring-1 ring-inset ring-slate-200"
        data-testid="queue-next"
      >
        <h4 id={headingId} className="mb-2 text-sm font-semibold text-slate-900">
          {t('planner.queue.next')}
        </h4>
        {nextFree.length === 0 ? (
          <p className="text-sm text-slate-600">{t('planner.queue.noFree')}</p>
        ) : (
          <NextSlots instants={nextFree.slice(0, Math.max(1, videoCount))} timeZone={timeZone} />
        )}
        {/* The queue has no over-cap choice: a slot on a full day is never a free one. */}
        <p className="mt-2 text-xs text-slate-600" data-testid="queue-cap-note">
          {t('planner.queue.capNote', { cap: dailyCap })}
        </p>
      </section>
      <PostingSlotsEditor accountId={accountId} slots={slots.data.slots} timeZone={timeZone} />
    </div>
  );
}

function NextSlots({ instants, timeZone }: { instants: string[]; timeZone: string }) {
  const format = useZonedFormat(timeZone);
  return (
    <>
      <ol className="flex flex-wrap gap-2">
        {instants.map((instant, index) => (
          <li
            key={instant}
            className="rounded-lg bg-brand-50 px-2.5 py-1 text-sm font-medium text-brand-900 ring-1 ring-inset ring-brand-200"
          >
            <span className="mr-1.5 text-xs text-brand-700">{index + 1}.</span>
            {format.dayAndTime(instant)}
          </li>
        ))}
      </ol>
      <ZoneNote timeZone={timeZone} />
    </>
  );
}

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
  const { locale } = useLanguage();
  const save = useSaveSlots(accountId);
  const headingId = useId();
  const hintId = useId();
  const timeId = useId();
  const daysId = useId();
  const [days, setDays] = useState<number[]>(workdays);
  const [time, setTime] = useState('12:00');
  const [dayError, setDayError] = useState(false);
  const sorted = [...slots].sort(byWeekThenTime);

  const replace = (next: Slot[]) => save.mutate(next.sort(byWeekThenTime));
  const add = (added: Slot[]) => replace([...slots, ...added]);
  const toggle = (weekday: number) => {
    setDayError(false);
    setDays((current) =>
      current.includes(weekday)
        ? current.filter((day) => day !== weekday)
        : [...current, weekday].sort(),
    );
  };

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

      {sorted.length === 0 ? (
        <p className="text-sm text-slate-600">{t('planner.slots.none')}</p>
      ) : (
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
                  onClick={() =>
                    replace(
                      slots.filter(
                        (other) => other.weekday !== slot.weekday || other.time !== slot.time,
                      ),
                    )
                  }
                  disabled={save.isPending}
                  aria-label={t('planner.slots.remove', { slot: words })}
                  className="rounded-full p-1 text-slate-500 hover:bg-slate-100 hover:text-slate-900"
                >
                  <XIcon className="h-3 w-3" />
                </button>
              </li>
            );
          })}
        </ul>
      )}

      <fieldset aria-describedby={dayError ? `${daysId}-error` : undefined}>
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
            onClick={() => {
              setDayError(false);
              setDays(workdays);
            }}
            className="rounded-lg px-2 py-1.5 text-xs font-semibold text-brand-700 hover:bg-brand-50"
          >
            {t('planner.slots.weekdays')}
          </button>
        </div>
        <FieldError id={`${daysId}-error`}>{dayError && t('planner.slots.pickDay')}</FieldError>
      </fieldset>

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
          disabled={save.isPending || time === ''}
          onClick={() => {
            if (days.length === 0) {
              setDayError(true);
              return;
            }
            add(days.map((weekday) => ({ weekday, time })));
          }}
        >
          {save.isPending && <Spinner className="h-4 w-4" />}
          {t('planner.slots.add')}
        </Button>
      </div>
      {save.isError && (
        <p className="text-sm font-medium text-red-700" role="alert">
          {t('planner.slots.saveFailed')}
        </p>
      )}

      <SuggestedSlots accountId={accountId} timeZone={timeZone} onUse={(slot) => add([slot])} />
    </section>
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
