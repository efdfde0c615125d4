import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { IntervalUnit } from './planner.ts';
import {
  addDaysToDate,
  groupByLocalDay,
  isoWeekday,
  isSupportedDate,
  isValidTimeZone,
  localDateOf,
  localTimeOf,
  nextOccurrence,
  planSchedule,
  planSpaced,
  previewSchedule,
  zonedDateTimeToUtc,
} from './planner.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

// The oracle: Intl's own UTC → wall-clock conversion, independent of the planner's inverse.
function wallClock(instant: Date, timeZone: string): { date: string; time: string } {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  }).formatToParts(instant);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return {
    date: `${get('year')}-${get('month')}-${get('day')}`,
    time: `${get('hour')}:${get('minute')}`,
  };
}

function nth<TItem>(items: readonly TItem[], index: number): TItem {
  const item = items[index];
  if (item === undefined) throw new Error(`no item at ${index}`);
  return item;
}

function daysBetween(fromDate: string, toDate: string): number {
  return (Date.parse(`${toDate}T00:00:00Z`) - Date.parse(`${fromDate}T00:00:00Z`)) / (24 * HOUR);
}

const zones = [
  'Europe/Paris',
  'America/New_York',
  'UTC',
  'Asia/Kolkata',
  'Australia/Lord_Howe', // 30-minute DST shift
  'Pacific/Chatham', // +12:45 / +13:45
  'America/Santiago', // DST in the southern summer
];
// 2024–2027: several DST transitions in every zone above.
const nowArb = fc
  .integer({ min: Date.UTC(2024, 0, 1), max: Date.UTC(2027, 11, 31) })
  .map((ms) => new Date(ms));
const timeArb = fc
  .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
  .map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`);
// Hours 04–23 never fall in a DST gap in the zones above (transitions happen between 00:00 and 04:00).
const safeTimeArb = fc
  .tuple(fc.integer({ min: 4, max: 23 }), fc.integer({ min: 0, max: 59 }))
  .map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`);
const mediaIdsArb = fc.uniqueArray(fc.uuid(), { minLength: 1, maxLength: 50 });
const unitArb = fc.constantFrom<IntervalUnit>('minutes', 'hours', 'days');
const randomArb = fc
  .array(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), { minLength: 1 })
  .map((values) => {
    let i = 0;
    return () => values[i++ % values.length] ?? 0;
  });

describe('zonedDateTimeToUtc', () => {
  it('converts a plain summer and winter time in Paris', () => {
    expect(zonedDateTimeToUtc('2025-07-14', '12:00', 'Europe/Paris').toISOString()).toBe(
      '2025-07-14T10:00:00.000Z',
    );
    expect(zonedDateTimeToUtc('2025-01-15', '12:00', 'Europe/Paris').toISOString()).toBe(
      '2025-01-15T11:00:00.000Z',
    );
  });

  it('moves a time inside the spring-forward gap forward by the gap', () => {
    // 02:30 does not exist on 2025-03-30 in Paris: 03:30 CEST.
    expect(zonedDateTimeToUtc('2025-03-30', '02:30', 'Europe/Paris').toISOString()).toBe(
      '2025-03-30T01:30:00.000Z',
    );
    expect(zonedDateTimeToUtc('2025-03-09', '02:30', 'America/New_York').toISOString()).toBe(
      '2025-03-09T07:30:00.000Z',
    );
  });

  it('takes the first occurrence of a time that happens twice', () => {
    expect(zonedDateTimeToUtc('2025-10-26', '02:30', 'Europe/Paris').toISOString()).toBe(
      '2025-10-26T00:30:00.000Z',
    );
    expect(zonedDateTimeToUtc('2025-11-02', '01:30', 'America/New_York').toISOString()).toBe(
      '2025-11-02T05:30:00.000Z',
    );
  });

  it('rejects dates that do not exist and malformed times', () => {
    expect(() => zonedDateTimeToUtc('2025-02-30', '12:00', 'UTC')).toThrow(RangeError);
    expect(() => zonedDateTimeToUtc('2025-02-01', '24:00', 'UTC')).toThrow(RangeError);
    expect(() => zonedDateTimeToUtc('2025-02-01', '12:00', 'Mars/Olympus')).toThrow(RangeError);
  });

  it('round-trips through Intl for every wall time outside transitions', () => {
    fc.assert(
      fc.property(nowArb, safeTimeArb, fc.constantFrom(...zones), (day, time, zone) => {
        const date = day.toISOString().slice(0, 10);
        const instant = zonedDateTimeToUtc(date, time, zone);
        expect(wallClock(instant, zone)).toEqual({ date, time });
      }),
    );
  });
});

describe('nextOccurrence', () => {
  it('is tomorrow 09:00 when it is already 10:00 in Paris', () => {
    const now = new Date('2025-06-10T08:00:00Z'); // 10:00 CEST
    expect(nextOccurrence('09:00', now, 'Europe/Paris').toISOString()).toBe(
      '2025-06-11T07:00:00.000Z',
    );
  });

  it('is today when the time is still ahead, and now when it is exactly now', () => {
    const now = new Date('2025-06-10T06:30:00Z'); // 08:30 CEST
    expect(nextOccurrence('09:00', now, 'Europe/Paris').toISOString()).toBe(
      '2025-06-10T07:00:00.000Z',
    );
    expect(nextOccurrence('08:30', now, 'Europe/Paris').toISOString()).toBe(now.toISOString());
  });

  it('uses the zone, not UTC, to decide what "today" is', () => {
    // 23:30 UTC on the 10th is already 08:30 on the 11th in Tokyo.
    const now = new Date('2025-06-10T23:30:00Z');
    expect(nextOccurrence('09:00', now, 'Asia/Tokyo').toISOString()).toBe(
      '2025-06-11T00:00:00.000Z',
    );
  });

  it('is never in the past and at most about a day ahead', () => {
    fc.assert(
      fc.property(nowArb, timeArb, fc.constantFrom(...zones), (now, time, zone) => {
        const next = nextOccurrence(time, now, zone);
        expect(next.getTime()).toBeGreaterThanOrEqual(now.getTime());
        // 24 h plus at most one DST shift (and a gap shift).
        expect(next.getTime() - now.getTime()).toBeLessThanOrEqual(26 * HOUR);
      }),
    );
  });
});

describe('planSpaced', () => {
  it('keeps order and cuts batches of exactly count, the last one possibly smaller', () => {
    fc.assert(
      fc.property(
        mediaIdsArb,
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 1, max: 1000 }),
        unitArb,
        timeArb,
        fc.constantFrom(...zones),
        nowArb,
        (mediaIds, count, value, unit, startTime, timeZone, now) => {
          const plan = planSpaced({
            mediaIds,
            count,
            value,
            unit,
            startTime,
            timeZone,
            now,
            randomize: false,
          });
          expect(plan.map((p) => p.mediaId)).toEqual(mediaIds);
          const sizes: number[] = [];
          plan.forEach((post, i) => {
            if (i === 0 || post.dueAt.getTime() !== plan[i - 1]?.dueAt.getTime()) sizes.push(0);
            sizes[sizes.length - 1] = (sizes.at(-1) ?? 0) + 1;
          });
          const effectiveCount = Math.min(count, mediaIds.length);
          expect(sizes.slice(0, -1).every((size) => size === effectiveCount)).toBe(true);
          expect(sizes.at(-1)).toBeGreaterThanOrEqual(1);
          expect(sizes.at(-1)).toBeLessThanOrEqual(effectiveCount);
          expect(sizes.length).toBe(Math.ceil(mediaIds.length / effectiveCount));
          // Due times only go forward, the first batch at the next occurrence of the start time.
          expect(plan[0]?.dueAt.toISOString()).toBe(
            nextOccurrence(startTime, now, timeZone).toISOString(),
          );
          for (let i = 1; i < plan.length; i++) {
            expect(nth(plan, i).dueAt.getTime()).toBeGreaterThanOrEqual(
              nth(plan, i - 1).dueAt.getTime(),
            );
          }
        },
      ),
    );
  });

  it('spaces consecutive batches by exactly value minutes or hours, across DST too', () => {
    fc.assert(
      fc.property(
        mediaIdsArb,
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 1, max: 1000 }),
        fc.constantFrom<IntervalUnit>('minutes', 'hours'),
        timeArb,
        fc.constantFrom(...zones),
        nowArb,
        (mediaIds, count, value, unit, startTime, timeZone, now) => {
          const plan = planSpaced({
            mediaIds,
            count,
            value,
            unit,
            startTime,
            timeZone,
            now,
            randomize: false,
          });
          const step = value * (unit === 'minutes' ? MINUTE : HOUR);
          const first = nth(plan, 0).dueAt.getTime();
          plan.forEach((post, i) => {
            const batch = Math.floor(i / Math.min(count, mediaIds.length));
            expect(post.dueAt.getTime() - first).toBe(batch * step);
          });
        },
      ),
    );
  });

  it('keeps the wall-clock start time for day intervals across DST changes', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.uuid(), { minLength: 2, maxLength: 40 }),
        fc.integer({ min: 1, max: 3 }),
        fc.integer({ min: 1, max: 45 }),
        safeTimeArb,
        fc.constantFrom('Europe/Paris', 'America/New_York'),
        nowArb,
        (mediaIds, count, value, startTime, timeZone, now) => {
          const plan = planSpaced({
            mediaIds,
            count,
            value,
            unit: 'days',
            startTime,
            timeZone,
            now,
            randomize: false,
          });
          const firstDate = wallClock(nth(plan, 0).dueAt, timeZone).date;
          plan.forEach((post, i) => {
            const seen = wallClock(post.dueAt, timeZone);
            expect(seen.time).toBe(startTime);
            expect(daysBetween(firstDate, seen.date)).toBe(Math.floor(i / count) * value);
          });
        },
      ),
    );
  });

  it('keeps 09:00 in Paris over the March and October changes (23 h and 25 h days)', () => {
    const spring = planSpaced({
      mediaIds: ['a', 'b', 'c'],
      count: 1,
      value: 1,
      unit: 'days',
      startTime: '09:00',
      timeZone: 'Europe/Paris',
      now: new Date('2025-03-28T12:00:00Z'),
      randomize: false,
    });
    expect(spring.map((p) => p.dueAt.toISOString())).toEqual([
      '2025-03-29T08:00:00.000Z',
      '2025-03-30T07:00:00.000Z',
      '2025-03-31T07:00:00.000Z',
    ]);
    const autumn = planSpaced({
      mediaIds: ['a', 'b'],
      count: 1,
      value: 1,
      unit: 'days',
      startTime: '09:00',
      timeZone: 'America/New_York',
      now: new Date('2025-11-01T12:00:00Z'), // 08:00 EDT
      randomize: false,
    });
    expect(autumn.map((p) => p.dueAt.toISOString())).toEqual([
      '2025-11-01T13:00:00.000Z',
      '2025-11-02T14:00:00.000Z',
    ]);
  });

  it('moves randomized posts by at most ±60 whole minutes and never into the past', () => {
    fc.assert(
      fc.property(
        mediaIdsArb,
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 1, max: 200 }),
        unitArb,
        timeArb,
        fc.constantFrom(...zones),
        nowArb,
        randomArb,
        (mediaIds, count, value, unit, startTime, timeZone, now, random) => {
          const input = { mediaIds, count, value, unit, startTime, timeZone, now };
          const slots = planSpaced({ ...input, randomize: false });
          const plan = planSpaced({ ...input, randomize: true, random });
          expect(plan.map((p) => p.mediaId)).toEqual(mediaIds);
          plan.forEach((post, i) => {
            const shift = post.dueAt.getTime() - nth(slots, i).dueAt.getTime();
            expect(Number.isInteger(post.jitterMinutes)).toBe(true);
            expect(shift).toBe(post.jitterMinutes * MINUTE);
            expect(Math.abs(post.jitterMinutes)).toBeLessThanOrEqual(60);
            expect(post.dueAt.getTime()).toBeGreaterThanOrEqual(now.getTime());
          });
        },
      ),
    );
  });

  it('spreads jitter over the whole ±60 range', () => {
    const plan = planSpaced({
      mediaIds: ['a', 'b', 'c'],
      count: 1,
      value: 1,
      unit: 'days',
      startTime: '09:00',
      timeZone: 'UTC',
      now: new Date('2025-06-10T12:00:00Z'),
      randomize: true,
      random: (() => {
        const draws = [0, 0.5, 0.99999];
        let i = 0;
        return () => draws[i++] ?? 0;
      })(),
    });
    expect(plan.map((p) => p.jitterMinutes)).toEqual([-60, 0, 60]);
    expect(plan[0]?.dueAt.toISOString()).toBe('2025-06-11T08:00:00.000Z');
  });

  it('clamps a randomized first post to now rather than before it', () => {
    const now = new Date('2025-06-10T08:40:00Z');
    const [post] = planSpaced({
      mediaIds: ['a'],
      count: 1,
      value: 1,
      unit: 'hours',
      startTime: '09:00', // UTC: 20 minutes from now
      timeZone: 'UTC',
      now,
      randomize: true,
      random: () => 0, // asks for −60
    });
    expect(post?.jitterMinutes).toBe(-20);
    expect(post?.dueAt.toISOString()).toBe(now.toISOString());
  });

  it('reduces a count larger than the number of videos to it (one batch)', () => {
    const plan = planSpaced({
      mediaIds: ['a', 'b', 'c'],
      count: 10,
      value: 2,
      unit: 'hours',
      startTime: '09:00',
      timeZone: 'Europe/Paris',
      now: new Date('2025-06-10T05:00:00Z'),
      randomize: false,
    });
    expect(new Set(plan.map((p) => p.dueAt.toISOString()))).toEqual(
      new Set(['2025-06-10T07:00:00.000Z']),
    );
  });

  it('plans two videos per 30 minutes from 09:00', () => {
    const plan = planSpaced({
      mediaIds: ['a', 'b', 'c', 'd', 'e'],
      count: 2,
      value: 30,
      unit: 'minutes',
      startTime: '09:00',
      timeZone: 'UTC',
      now: new Date('2025-06-10T05:00:00Z'),
      randomize: false,
    });
    expect(plan.map((p) => [p.mediaId, p.dueAt.toISOString().slice(11, 16)])).toEqual([
      ['a', '09:00'],
      ['b', '09:00'],
      ['c', '09:30'],
      ['d', '09:30'],
      ['e', '10:00'],
    ]);
  });
});

describe('planSchedule', () => {
  const now = new Date('2025-06-10T10:15:30Z'); // 12:15:30 in Paris
  const base = { mediaIds: ['a', 'b'], timeZone: 'Europe/Paris' };

  it('makes every immediate post due now', () => {
    const result = planSchedule({ ...base, publishType: 'immediate' }, now);
    expect(result).toEqual({
      ok: true,
      posts: [
        { mediaId: 'a', dueAt: now, jitterMinutes: 0 },
        { mediaId: 'b', dueAt: now, jitterMinutes: 0 },
      ],
    });
  });

  it('makes every scheduled post due at the date and time in the request zone', () => {
    const result = planSchedule(
      { ...base, publishType: 'scheduled', date: '2025-06-11', time: '12:00' },
      now,
    );
    expect(result.ok && result.posts.map((p) => p.dueAt.toISOString())).toEqual([
      '2025-06-11T10:00:00.000Z',
      '2025-06-11T10:00:00.000Z',
    ]);
  });

  it('refuses a scheduled time that has passed, and treats the current minute as now', () => {
    expect(
      planSchedule({ ...base, publishType: 'scheduled', date: '2025-06-10', time: '12:14' }, now),
    ).toEqual({ ok: false, code: 'date_in_past' });
    const currentMinute = planSchedule(
      { ...base, publishType: 'scheduled', date: '2025-06-10', time: '12:15' },
      now,
    );
    expect(currentMinute.ok && currentMinute.posts[0]?.dueAt).toEqual(now);
  });

  it('reports missing method fields instead of guessing', () => {
    expect(planSchedule({ ...base, publishType: 'scheduled', time: '12:00' }, now)).toEqual({
      ok: false,
      code: 'missing_date_time',
    });
    expect(planSchedule({ ...base, publishType: 'spaced' }, now)).toEqual({
      ok: false,
      code: 'missing_spaced_interval',
    });
  });

  it('plans spaced requests with the given random source', () => {
    const result = planSchedule(
      {
        ...base,
        publishType: 'spaced',
        spacedInterval: {
          count: 1,
          value: 1,
          unit: 'hours',
          startTime: '09:00',
          randomizeTime: true,
        },
      },
      now,
      () => 0.75,
    );
    // 09:00 has passed in Paris: tomorrow 09:00 CEST, +30 min jitter.
    expect(result.ok && result.posts.map((p) => [p.dueAt.toISOString(), p.jitterMinutes])).toEqual([
      ['2025-06-11T07:30:00.000Z', 30],
      ['2025-06-11T08:30:00.000Z', 30],
    ]);
  });
});

describe('isValidTimeZone', () => {
  it('accepts IANA zones and refuses anything else', () => {
    expect(isValidTimeZone('Europe/Paris')).toBe(true);
    expect(isValidTimeZone('UTC')).toBe(true);
    expect(isValidTimeZone('Europe/Atlantis')).toBe(false);
    expect(isValidTimeZone('')).toBe(false);
  });
});

describe('spaced plans with a start date', () => {
  const spaced = (
    startDate: string,
    startTime: string,
    unit: IntervalUnit,
    value = 1,
    count = 1,
  ) => ({
    mediaIds: ['a', 'b', 'c', 'd'],
    publishType: 'spaced' as const,
    timeZone: 'Europe/Paris',
    spacedInterval: { count, value, unit, startTime, startDate, randomizeTime: false },
  });
  const iso = (result: ReturnType<typeof planSchedule>) =>
    result.ok ? result.posts.map((post) => post.dueAt.toISOString()) : result.code;

  it('starts on the date given, even days ahead, rather than at the next start time', () => {
    const now = new Date('2025-06-10T05:00:00Z'); // 07:00 in Paris
    expect(iso(planSchedule(spaced('2025-06-20', '09:00', 'days', 2, 2), now))).toEqual([
      '2025-06-20T07:00:00.000Z',
      '2025-06-20T07:00:00.000Z',
      '2025-06-22T07:00:00.000Z',
      '2025-06-22T07:00:00.000Z',
    ]);
  });

  it('refuses a start that has wholly passed, and takes the current minute as now', () => {
    const now = new Date('2025-06-10T07:15:30Z'); // 09:15:30 in Paris
    expect(planSchedule(spaced('2025-06-10', '09:00', 'hours'), now)).toEqual({
      ok: false,
      code: 'start_in_past',
    });
    expect(iso(planSchedule(spaced('2025-06-10', '09:15', 'hours'), now))[0]).toBe(
      now.toISOString(),
    );
  });

  // The DST test of issue 11: Europe/Paris springs forward on the last Sunday of March
  // (2025-03-30, 02:00 → 03:00) and falls back on the last Sunday of October (2025-10-26,
  // 03:00 → 02:00).
  describe('across the DST changes of Europe/Paris', () => {
    const now = new Date('2025-03-01T00:00:00Z');

    it('hours are exact durations: the hour of the March gap is skipped on the clocks', () => {
      const plan = planSchedule(spaced('2025-03-30', '00:30', 'hours'), now);
      expect(iso(plan)).toEqual([
        '2025-03-29T23:30:00.000Z', // 00:30 CET
        '2025-03-30T00:30:00.000Z', // 01:30 CET
        '2025-03-30T01:30:00.000Z', // 03:30 CEST: 02:30 never shows on the clocks
        '2025-03-30T02:30:00.000Z', // 04:30 CEST
      ]);
      if (!plan.ok) throw new Error('planned');
      expect(plan.posts.map((post) => wallClock(post.dueAt, 'Europe/Paris').time)).toEqual([
        '00:30',
        '01:30',
        '03:30',
        '04:30',
      ]);
    });

    it('hours are exact durations: the October hour that happens twice is counted twice', () => {
      const plan = planSchedule(spaced('2025-10-26', '01:30', 'hours'), now);
      expect(iso(plan)).toEqual([
        '2025-10-25T23:30:00.000Z', // 01:30 CEST
        '2025-10-26T00:30:00.000Z', // 02:30 CEST
        '2025-10-26T01:30:00.000Z', // 02:30 CET, the second time
        '2025-10-26T02:30:00.000Z', // 03:30 CET
      ]);
    });

    it('days keep the wall-clock time; a start in the March gap moves forward by the gap', () => {
      expect(iso(planSchedule(spaced('2025-03-29', '02:30', 'days'), now))).toEqual([
        '2025-03-29T01:30:00.000Z', // 02:30 CET
        '2025-03-30T01:30:00.000Z', // 02:30 does not exist: 03:30 CEST
        '2025-03-31T00:30:00.000Z', // 02:30 CEST
        '2025-04-01T00:30:00.000Z',
      ]);
      expect(iso(planSchedule(spaced('2025-10-25', '02:30', 'days'), now))).toEqual([
        '2025-10-25T00:30:00.000Z', // 02:30 CEST
        '2025-10-26T00:30:00.000Z', // 02:30 happens twice: the first, CEST
        '2025-10-27T01:30:00.000Z', // 02:30 CET
        '2025-10-28T01:30:00.000Z',
      ]);
    });
  });
});

describe('previewSchedule', () => {
  const now = new Date('2025-06-10T07:30:00Z'); // 09:30 in Paris
  const request = (randomizeTime: boolean) => ({
    mediaIds: ['a', 'b'],
    publishType: 'spaced' as const,
    timeZone: 'Europe/Paris',
    spacedInterval: {
      count: 1,
      value: 30,
      unit: 'minutes' as const,
      startTime: '10:00',
      startDate: '2025-06-10',
      randomizeTime,
    },
  });

  it('shows each slot, with the ±1 h window randomize may use, never before now', () => {
    const preview = previewSchedule(request(true), now);
    if (!preview.ok) throw new Error('planned');
    expect(
      preview.posts.map((post) =>
        [post.dueAt, post.earliest, post.latest].map((d) => d.toISOString()),
      ),
    ).toEqual([
      ['2025-06-10T08:00:00.000Z', '2025-06-10T07:30:00.000Z', '2025-06-10T09:00:00.000Z'],
      ['2025-06-10T08:30:00.000Z', '2025-06-10T07:30:00.000Z', '2025-06-10T09:30:00.000Z'],
    ]);
    // The preview is what planSchedule gives with no jitter drawn.
    const plan = planSchedule(request(false), now);
    const fixed = previewSchedule(request(false), now);
    if (!plan.ok || !fixed.ok) throw new Error('planned');
    expect(fixed.posts.map((post) => post.dueAt)).toEqual(plan.posts.map((post) => post.dueAt));
    expect(
      fixed.posts.every((post) => post.earliest === post.dueAt && post.latest === post.dueAt),
    ).toBe(true);
  });

  it('passes refusals on', () => {
    expect(previewSchedule({ ...request(false), publishType: 'scheduled' }, now)).toEqual({
      ok: false,
      code: 'missing_date_time',
    });
  });
});

describe('days in a time zone', () => {
  it('names the local day of an instant, and groups a list by it across a DST change', () => {
    const posts = [
      '2025-10-25T21:59:00Z', // 23:59 CEST, the 25th
      '2025-10-25T22:00:00Z', // 00:00 CEST, the 26th
      '2025-10-26T00:30:00Z', // 02:30 CEST, the 26th
      '2025-10-26T01:30:00Z', // 02:30 CET, the 26th (the repeated hour)
      '2025-10-26T22:59:00Z', // 23:59 CET, the 26th (a 25-hour day)
      '2025-10-26T23:00:00Z', // 00:00 CET, the 27th
    ].map((at) => ({ at: new Date(at) }));
    expect(localDateOf(new Date('2025-10-26T22:59:00Z'), 'Europe/Paris')).toBe('2025-10-26');
    expect(localDateOf(new Date('2025-10-26T22:59:00Z'), 'UTC')).toBe('2025-10-26');
    expect(localDateOf(new Date('2025-10-26T23:00:00Z'), 'Asia/Tokyo')).toBe('2025-10-27');
    const groups = groupByLocalDay(posts, (post) => post.at, 'Europe/Paris');
    expect(groups.map((group) => [group.date, group.items.length])).toEqual([
      ['2025-10-25', 1],
      ['2025-10-26', 4],
      ['2025-10-27', 1],
    ]);
  });

  it('does calendar arithmetic on dates, and knows ISO weekdays', () => {
    expect(addDaysToDate('2025-02-28', 1)).toBe('2025-03-01');
    expect(addDaysToDate('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDaysToDate('2025-01-01', -1)).toBe('2024-12-31');
    expect(isoWeekday('2025-03-30')).toBe(7);
    expect(isoWeekday('2025-03-31')).toBe(1);
    expect(localTimeOf(new Date('2025-03-30T01:30:00Z'), 'Europe/Paris')).toBe('03:30');
  });
});

describe('the supported years', () => {
  it('bounds the dates a person may give: 1970-01-01 to 9998-12-31, dates that exist', () => {
    for (const date of ['1970-01-01', '2026-02-28', '9998-12-31']) {
      expect(isSupportedDate(date), date).toBe(true);
    }
    for (const date of ['0000-01-01', '1969-12-31', '9999-01-01', '9999-12-31', '2026-02-30']) {
      expect(isSupportedDate(date), date).toBe(false);
    }
  });

  it('plans only instants written with four-digit years, or refuses the plan as too far ahead', () => {
    // The last supported days, in every zone, with the longest spacing a request may carry.
    const lastDays = fc
      .integer({ min: Date.UTC(9990, 0, 1), max: Date.UTC(9998, 11, 31) })
      .map((ms) => new Date(ms).toISOString().slice(0, 10));
    fc.assert(
      fc.property(
        mediaIdsArb,
        fc.integer({ min: 1, max: 50 }),
        fc.integer({ min: 1, max: 1000 }),
        unitArb,
        timeArb,
        lastDays,
        fc.constantFrom(...zones),
        (mediaIds, count, value, unit, time, date, timeZone) => {
          const now = new Date(Date.UTC(2026, 10, 29));
          const requests = [
            { mediaIds, timeZone, publishType: 'scheduled' as const, date, time },
            {
              mediaIds,
              timeZone,
              publishType: 'spaced' as const,
              spacedInterval: {
                count,
                value,
                unit,
                startTime: time,
                startDate: date,
                randomizeTime: true,
              },
            },
          ];
          for (const request of requests) {
            const plan = planSchedule(request, now);
            if (!plan.ok) {
              expect(plan.code).toBe('beyond_supported_dates');
              continue;
            }
            for (const post of plan.posts) {
              expect(post.dueAt.toISOString()).toMatch(/^\d{4}-/);
            }
          }
        },
      ),
    );
  });
});
