import { dateFormatter } from '@cadence/shared/date-format';
import { useMemo } from 'react';
import { useLanguage } from '../../../lib/i18n.ts';

/** A civil date as an instant that every formatter reads back as that date (in UTC). */
function civil(date: string): Date {
  return new Date(`${date}T12:00:00Z`);
}

export interface CalendarFormat {
  /** '14:05' on the calendar zone's clocks. */
  time: (instant: string) => string;
  /** 'lundi 23 novembre 2026', 'dimanche 1er novembre 2026' */
  longDate: (date: string) => string;
  /** 'lundi 23 novembre' */
  dayMonth: (date: string) => string;
  /** 'lun. 23' */
  shortDay: (date: string) => string;
  /** 'lun.' */
  weekday: (date: string) => string;
  /** 'novembre 2026' */
  month: (date: string) => string;
  /** '23 – 29 nov. 2026', '26 oct. – 1er nov. 2026' */
  range: (first: string, last: string) => string;
  /** '09:00' */
  hour: (hour: number) => string;
}

/** Formatters in the interface language, times in `timeZone`: built once, used by every chip. */
export function useCalendarFormat(timeZone: string): CalendarFormat {
  const { locale } = useLanguage();
  return useMemo(() => {
    const time = new Intl.DateTimeFormat(locale, {
      timeZone,
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    // Dates in words through the one helper: '1er' on the first of a month in French.
    const utc = (options: Intl.DateTimeFormatOptions) =>
      dateFormatter(locale, { timeZone: 'UTC', ...options });
    const longDate = utc({ weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' });
    const dayMonth = utc({ weekday: 'long', day: 'numeric', month: 'long' });
    const shortDay = utc({ weekday: 'short', day: 'numeric' });
    const weekday = utc({ weekday: 'short' });
    const month = utc({ month: 'long', year: 'numeric' });
    const range = utc({ day: 'numeric', month: 'short', year: 'numeric' });
    return {
      time: (instant) => time.format(new Date(instant)),
      longDate: (date) => longDate.format(civil(date)),
      dayMonth: (date) => dayMonth.format(civil(date)),
      shortDay: (date) => shortDay.format(civil(date)),
      weekday: (date) => weekday.format(civil(date)),
      month: (date) => month.format(civil(date)),
      range: (first, last) => range.formatRange(civil(first), civil(last)),
      hour: (hour) => `${String(hour).padStart(2, '0')}:00`,
    };
  }, [locale, timeZone]);
}
