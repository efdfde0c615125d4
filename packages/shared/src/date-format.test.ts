import { describe, expect, it } from 'vitest';
import { dateFormatter } from './date-format.ts';
import type { IntlLocale } from './locale.ts';

/** A civil date at noon UTC, read back in UTC: no zone can shift its day. */
const civil = (date: string) => new Date(`${date}T12:00:00Z`);
const utc = (locale: IntlLocale, options: Intl.DateTimeFormatOptions) =>
  dateFormatter(locale, { timeZone: 'UTC', ...options });

const longDay = { weekday: 'long', day: 'numeric', month: 'long' } as const;
const shortDay = { day: 'numeric', month: 'short' } as const;

describe('dateFormatter: French writes the first of the month "1er"', () => {
  it('writes 1er on the 1st, in long and short months, with or without weekday and time', () => {
    expect(utc('fr-FR', longDay).format(civil('2026-11-01'))).toBe('dimanche 1er novembre');
    expect(utc('fr-FR', shortDay).format(civil('2026-12-01'))).toBe('1er déc.');
    expect(utc('fr-FR', { dateStyle: 'long' }).format(civil('2026-11-01'))).toBe(
      '1er novembre 2026',
    );
    expect(
      utc('fr-FR', { dateStyle: 'medium', timeStyle: 'short' }).format(
        new Date('2026-11-01T14:05:00Z'),
      ),
    ).toBe('1er nov. 2026, 14:05');
  });

  it('leaves every other day alone: 2, 11, 21, 31', () => {
    const format = utc('fr-FR', longDay);
    expect(format.format(civil('2026-11-02'))).toBe('lundi 2 novembre');
    expect(format.format(civil('2026-11-11'))).toBe('mercredi 11 novembre');
    expect(format.format(civil('2026-11-21'))).toBe('samedi 21 novembre');
    expect(format.format(civil('2026-12-31'))).toBe('jeudi 31 décembre');
  });

  it('writes 1er at either end of a range', () => {
    const range = utc('fr-FR', { day: 'numeric', month: 'short', year: 'numeric' });
    expect(range.formatRange(civil('2026-06-01'), civil('2026-06-07'))).toBe('1er–7 juin 2026');
    // ICU puts thin spaces (U+2009) around the dash between two months.
    expect(range.formatRange(civil('2026-10-26'), civil('2026-11-01'))).toBe(
      '26 oct.\u2009–\u20091er nov. 2026',
    );
  });

  it('keeps numeric dates and dates without a month as Intl writes them', () => {
    expect(utc('fr-FR', { dateStyle: 'short' }).format(civil('2026-11-01'))).toBe('01/11/2026');
    expect(utc('fr-FR', { day: 'numeric', month: 'numeric' }).format(civil('2026-11-01'))).toBe(
      '01/11',
    );
    expect(utc('fr-FR', { weekday: 'short', day: 'numeric' }).format(civil('2026-11-01'))).toBe(
      'dim. 1',
    );
  });

  it('changes nothing in English', () => {
    expect(utc('en-GB', longDay).format(civil('2026-11-01'))).toBe('Sunday 1 November');
    expect(utc('en-GB', shortDay).format(civil('2026-12-01'))).toBe('1 Dec');
    expect(utc('en-GB', { dateStyle: 'long' }).format(civil('2026-11-01'))).toBe('1 November 2026');
    const options = { timeZone: 'UTC', day: 'numeric', month: 'short' } as const;
    expect(
      dateFormatter('en-GB', options).formatRange(civil('2026-06-01'), civil('2026-06-07')),
    ).toBe(
      new Intl.DateTimeFormat('en-GB', options).formatRange(
        civil('2026-06-01'),
        civil('2026-06-07'),
      ),
    );
  });
});
