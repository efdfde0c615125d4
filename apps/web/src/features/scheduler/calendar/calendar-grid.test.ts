import { describe, expect, it } from 'vitest';
import {
  monthGrid,
  movedDueAt,
  newScheduleHref,
  postsByDay,
  rangeOfDays,
  shiftAnchor,
  startOfWeek,
  weekDays,
} from './calendar-grid.ts';

const dates = (days: { date: string }[]) => days.map((day) => day.date);

describe('monthGrid', () => {
  it('lays a month out as whole weeks from Monday, flagging the days of the months around it', () => {
    // November 2026 starts on a Sunday and ends on a Monday: six rows.
    const weeks = monthGrid('2026-11-24', '2026-11-24');
    expect(weeks).toHaveLength(6);
    expect(weeks[0]?.[0]).toMatchObject({ date: '2026-10-26', inMonth: false, isPast: true });
    expect(weeks[0]?.[6]).toMatchObject({ date: '2026-11-01', inMonth: true });
    expect(weeks[5]?.[0]).toMatchObject({ date: '2026-11-30', inMonth: true });
    expect(weeks[5]?.[6]).toMatchObject({ date: '2026-12-06', inMonth: false, isPast: false });
    const today = weeks.flat().filter((day) => day.isToday);
    expect(dates(today)).toEqual(['2026-11-24']);
    expect(weeks.flat()).toHaveLength(42);
  });

  it('needs only four rows for a February starting on Monday, and crosses the year boundary', () => {
    expect(monthGrid('2027-02-10', '2027-01-01')).toHaveLength(4);
    const december = monthGrid('2026-12-31', '2026-12-31').flat();
    expect(december[0]?.date).toBe('2026-11-30');
    expect(december.at(-1)?.date).toBe('2027-01-03');
    expect(december.filter((day) => day.inMonth)).toHaveLength(31);
  });

  it('keeps a leap day', () => {
    const february = monthGrid('2028-02-01', '2028-02-01').flat();
    expect(february.filter((day) => day.inMonth).at(-1)?.date).toBe('2028-02-29');
  });
});

describe('weeks and navigation', () => {
  it('starts weeks on Monday, also from a Sunday', () => {
    expect(startOfWeek('2026-11-29')).toBe('2026-11-23');
    expect(startOfWeek('2026-11-23')).toBe('2026-11-23');
    expect(dates(weekDays('2026-12-31', '2026-11-24'))).toEqual([
      '2026-12-28',
      '2026-12-29',
      '2026-12-30',
      '2026-12-31',
      '2027-01-01',
      '2027-01-02',
      '2027-01-03',
    ]);
  });

  it('moves a month or a week, across years', () => {
    expect(shiftAnchor('month', '2026-12-15', 1)).toBe('2027-01-01');
    expect(shiftAnchor('month', '2026-01-31', -1)).toBe('2025-12-01');
    expect(shiftAnchor('week', '2026-12-28', 1)).toBe('2027-01-04');
    expect(shiftAnchor('week', '2026-03-02', -1)).toBe('2026-02-23');
  });
});

describe('across a DST change (Europe/Paris, 2026-03-29 and 2026-10-25)', () => {
  const zone = 'Europe/Paris';

  it('asks for midnight to midnight in the zone: a 23-hour and a 25-hour day', () => {
    expect(rangeOfDays('2026-03-29', '2026-03-29', zone)).toEqual({
      from: '2026-03-28T23:00:00.000Z',
      to: '2026-03-29T22:00:00.000Z',
    });
    expect(rangeOfDays('2026-10-25', '2026-10-25', zone)).toEqual({
      from: '2026-10-24T22:00:00.000Z',
      to: '2026-10-25T23:00:00.000Z',
    });
    // The whole March grid (six weeks at most) stays within the server's 42-day limit.
    const march = monthGrid('2026-03-01', '2026-03-01').flat();
    const range = rangeOfDays(march[0]!.date, march.at(-1)!.date, zone);
    expect(Date.parse(range.to) - Date.parse(range.from)).toBeLessThanOrEqual(42 * 86_400_000);
  });

  it('puts posts on their day in the zone, not in UTC, around the change', () => {
    const posts = [
      { id: 'b', dueAt: '2026-03-29T21:30:00.000Z' }, // 23:30 summer time: still the 29th
      { id: 'a', dueAt: '2026-03-28T23:30:00.000Z' }, // 00:30 winter time on the 29th
      { id: 'c', dueAt: '2026-03-29T22:30:00.000Z' }, // 00:30 on the 30th
      { id: 'd', dueAt: '2026-10-25T23:30:00.000Z' }, // 00:30 on the 26th (winter time)
    ];
    const days = ['2026-03-28', '2026-03-29', '2026-03-30'];
    const byDay = postsByDay(posts, days, zone);
    expect(byDay.get('2026-03-29')?.map((post) => post.id)).toEqual(['a', 'b']);
    expect(byDay.get('2026-03-30')?.map((post) => post.id)).toEqual(['c']);
    // Outside the days asked for: left out.
    expect(byDay.get('2026-10-26')).toBeUndefined();
    const ids = (map: Map<string, { id: string }[]>, date: string) =>
      map.get(date)?.map((post) => post.id);
    expect(ids(postsByDay(posts, ['2026-10-26'], zone), '2026-10-26')).toEqual(['d']);
    expect(ids(postsByDay(posts, days, 'UTC'), '2026-03-28')).toEqual(['a']);
    expect(ids(postsByDay(posts, days, 'UTC'), '2026-03-29')).toEqual(['b', 'c']);
    expect(postsByDay(posts, [], zone).size).toBe(0);
  });

  it('moves a post to another day at the same wall-clock time, whatever the offsets', () => {
    // 18:15 in winter (UTC+1) to a summer day (UTC+2): still 18:15 on the clocks.
    expect(movedDueAt('2026-03-27T17:15:00.000Z', { date: '2026-03-30' }, zone).toISOString()).toBe(
      '2026-03-30T16:15:00.000Z',
    );
    // To another hour in the week view: the minutes stay.
    expect(
      movedDueAt('2026-10-24T16:45:00.000Z', { date: '2026-10-26', hour: 9 }, zone).toISOString(),
    ).toBe('2026-10-26T08:45:00.000Z');
    // 02:30 does not exist on 2026-03-29: moved forward by the gap, to 03:30 summer time.
    expect(
      movedDueAt('2026-03-27T09:30:00.000Z', { date: '2026-03-29', hour: 2 }, zone).toISOString(),
    ).toBe('2026-03-29T01:30:00.000Z');
  });
});

it('links an empty slot to the form at that local date and time', () => {
  expect(newScheduleHref('2026-12-03')).toBe('/scheduler?at=2026-12-03T12:00');
  expect(newScheduleHref('2026-12-03', 7)).toBe('/scheduler?at=2026-12-03T07:00');
});
