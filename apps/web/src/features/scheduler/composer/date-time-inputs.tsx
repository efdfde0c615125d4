import type { ReactNode } from 'react';
import { FieldError, inputClass, labelClass } from '../components/form-controls.tsx';
import { ZoneNote } from '../components/zone-note.tsx';

/** One of the two inputs: its id (the error's and the zone note's ids derive from it), label, value. */
export interface DateTimePart {
  id: string;
  label: string;
  value: string;
  error: string | undefined;
  onChange: (value: string) => void;
}

/**
 * A date and a time side by side, the time named with the zone it is read in ('at a specific
 * time', the spaced start). `children`: what goes under both, across the two columns.
 */
export function DateTimeInputs({
  date,
  time,
  timeZone,
  className,
  children,
}: {
  date: DateTimePart;
  time: DateTimePart;
  timeZone: string;
  className: string;
  children?: ReactNode;
}) {
  const zoneId = `${time.id}-zone`;
  return (
    <div className={className}>
      <div>
        <label htmlFor={date.id} className={labelClass}>
          {date.label}
        </label>
        <input
          id={date.id}
          type="date"
          value={date.value}
          onChange={(event) => date.onChange(event.target.value)}
          aria-invalid={date.error ? true : undefined}
          aria-describedby={date.error ? `${date.id}-error` : undefined}
          className={inputClass}
        />
        <FieldError id={`${date.id}-error`}>{date.error}</FieldError>
      </div>
      <div>
        <label htmlFor={time.id} className={labelClass}>
          {time.label}
        </label>
        <input
          id={time.id}
          type="time"
          value={time.value}
          onChange={(event) => time.onChange(event.target.value)}
          aria-invalid={time.error ? true : undefined}
          aria-describedby={time.error ? `${zoneId} ${time.id}-error` : zoneId}
          className={inputClass}
        />
        <ZoneNote id={zoneId} timeZone={timeZone} />
        <FieldError id={`${time.id}-error`}>{time.error}</FieldError>
      </div>
      {children}
    </div>
  );
}
