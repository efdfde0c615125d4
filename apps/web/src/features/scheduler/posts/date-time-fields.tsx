import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { DateTime } from './date-time.ts';
import { inputClass, labelClass } from '../components/form-controls.tsx';

/** Date and time inputs side by side, read on the clocks of the zone `zoneName` names. */
export function DateTimeFields({
  value,
  onChange,
  zoneName,
}: {
  value: DateTime;
  onChange: (value: DateTime) => void;
  zoneName: string;
}) {
  const { t } = useTranslation();
  const dateId = useId();
  const timeId = useId();
  const zoneId = useId();
  return (
    <div>
      <div className="grid grid-cols-2 gap-3">
        <div className="min-w-0">
          <label htmlFor={dateId} className={labelClass}>
            {t('scheduler.form.date')}
          </label>
          <input
            id={dateId}
            type="date"
            required
            value={value.date}
            onChange={(event) => onChange({ ...value, date: event.target.value })}
            aria-describedby={zoneId}
            className={inputClass}
          />
        </div>
        <div className="min-w-0">
          <label htmlFor={timeId} className={labelClass}>
            {t('scheduler.form.time')}
          </label>
          <input
            id={timeId}
            type="time"
            required
            value={value.time}
            onChange={(event) => onChange({ ...value, time: event.target.value })}
            aria-describedby={zoneId}
            className={inputClass}
          />
        </div>
      </div>
      <p id={zoneId} className="mt-1.5 text-xs text-slate-500">
        {t('scheduler.lists.timeZone', { zone: zoneName })}
      </p>
    </div>
  );
}
