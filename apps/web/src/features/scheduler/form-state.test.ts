import type { CreatorInfo } from '@cadence/shared/schemas/account';
import { describe, expect, it } from 'vitest';
import {
  creatorBlocksSubmit,
  accountDefaults,
  buildScheduleRequest,
  capIntervalCount,
  clampIntervalCount,
  initialFormState,
  serverFieldErrors,
  todayIsoDate,
  validateSchedule,
  type ScheduleFormState,
} from './form-state.ts';

const accountId = '0b6f3f0e-7c1a-4c61-9d0e-2f1d5a2b9c11';
const creator: CreatorInfo = {
  nickname: 'Léa',
  username: 'lea',
  avatarUrl: 'https://example.com/a.png',
  privacyLevelOptions: ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'SELF_ONLY'],
  commentDisabled: false,
  duetDisabled: true,
  stitchDisabled: false,
  maxVideoPostDurationSec: 600,
  cannotPostReason: null,
};
const videos = [
  { key: 'a', mediaId: 'm1' },
  { key: 'b', mediaId: 'm2' },
];

function filled(patch: Partial<ScheduleFormState> = {}): ScheduleFormState {
  return {
    ...initialFormState(accountId, new Date(2030, 0, 5, 8, 0)),
    privacyLevel: 'SELF_ONLY',
    consent: true,
    ...patch,
  };
}

describe('scheduler form state', () => {
  it('starts as the spec says: immediate, today, 12:00, interval 1 × 1 hour from 09:00, nothing chosen for TikTok', () => {
    const state = initialFormState('', new Date(2030, 0, 5, 23, 30));
    expect(state).toMatchObject({
      publishType: 'immediate',
      date: '2030-01-05',
      time: '12:00',
      interval: { count: 1, value: 1, unit: 'hours', startTime: '09:00', randomizeTime: false },
      privacyLevel: '',
      allowComment: false,
      allowDuet: false,
      allowStitch: false,
      commercialContent: { enabled: false, yourBrand: false, brandedContent: false },
      consent: false,
    });
    expect(todayIsoDate(new Date(2030, 11, 31, 23, 59))).toBe('2030-12-31');
  });

  it('reports every missing choice at once, with the translation keys of the spec', () => {
    const result = validateSchedule(buildScheduleRequest(initialFormState(), [], 'Europe/Paris'));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toMatchObject({
      videos: 'errors.selectVideo',
      accountId: 'errors.selectTikTokAccount',
      privacyLevel: 'errors.selectPrivacy',
      consent: 'errors.consentRequired',
    });
  });

  it('sends date and time only when scheduled, and the interval only when spaced, count clamped to the videos', () => {
    const immediate = validateSchedule(buildScheduleRequest(filled(), videos, 'Europe/Paris'));
    expect(immediate.ok && immediate.request).toMatchObject({
      mediaIds: ['m1', 'm2'],
      publishType: 'immediate',
      posts: [
        { mediaId: 'm1', title: '' },
        { mediaId: 'm2', title: '' },
      ],
    });
    expect(immediate.ok && 'date' in immediate.request && immediate.request.date).toBeFalsy();

    const scheduled = buildScheduleRequest(
      filled({ publishType: 'scheduled', date: '2030-02-01', time: '18:30' }),
      videos,
      'Europe/Paris',
    );
    expect(scheduled).toMatchObject({ date: '2030-02-01', time: '18:30' });
    expect(scheduled).not.toHaveProperty('spacedInterval');

    const spaced = buildScheduleRequest(
      filled({
        publishType: 'spaced',
        interval: { count: 5, value: 2, unit: 'days', startTime: '07:15', randomizeTime: false },
      }),
      videos,
      'Europe/Paris',
    );
    expect(spaced).toMatchObject({
      spacedInterval: { count: 2, value: 2, unit: 'days', startTime: '07:15' },
    });
    expect(spaced).not.toHaveProperty('date');
    expect(clampIntervalCount(3, 0)).toBe(1);
    expect(clampIntervalCount(0, 4)).toBe(1);
  });

  it('reports an emptied date, time, count or interval as missing rather than filling it in', () => {
    const scheduled = validateSchedule(
      buildScheduleRequest(
        filled({ publishType: 'scheduled', date: '', time: '' }),
        videos,
        'Europe/Paris',
      ),
    );
    expect(scheduled).toEqual({
      ok: false,
      errors: { date: 'errors.dateRequired', time: 'errors.timeRequired' },
    });
    const spaced = validateSchedule(
      buildScheduleRequest(
        filled({
          publishType: 'spaced',
          interval: { count: 0, value: 0, unit: 'hours', startTime: '09:00', randomizeTime: false },
        }),
        videos,
        'Europe/Paris',
      ),
    );
    expect(spaced).toEqual({
      ok: false,
      errors: {
        'interval.count': 'errors.invalidIntervalCount',
        'interval.value': 'errors.invalidIntervalValue',
      },
    });
    expect(capIntervalCount(5, 2)).toBe(2);
    expect(capIntervalCount(0, 2)).toBe(0);
    expect(capIntervalCount(3, 0)).toBe(1);
  });

  it('puts caption and branded-content errors on their own fields', () => {
    const result = validateSchedule(
      buildScheduleRequest(
        filled({
          captions: { b: 'x'.repeat(2201) },
          commercialContent: { enabled: true, yourBrand: false, brandedContent: true },
        }),
        videos,
        'Europe/Paris',
      ),
    );
    expect(result.ok ? {} : result.errors).toEqual({
      'caption:1': 'errors.titleTooLong',
      privacyLevel: 'errors.brandedContentPrivate',
    });
    expect(
      validateSchedule(
        buildScheduleRequest(
          filled({ commercialContent: { enabled: true, yourBrand: false, brandedContent: false } }),
          videos,
          'Europe/Paris',
        ),
      ),
    ).toEqual({ ok: false, errors: { commercialContent: 'errors.commercialContentChoice' } });
  });

  it("takes only the account's own saved defaults, and never one TikTok disallows", () => {
    const settings = {
      defaultPrivacyLevel: 'FOLLOWER_OF_CREATOR' as const,
      allowComment: true,
      allowDuet: true,
      allowStitch: false,
    };
    expect(accountDefaults(settings, creator)).toEqual({
      privacyLevel: '',
      allowComment: true,
      allowDuet: false,
      allowStitch: false,
    });
    expect(
      accountDefaults({ ...settings, defaultPrivacyLevel: 'SELF_ONLY' }, creator).privacyLevel,
    ).toBe('SELF_ONLY');
    expect(accountDefaults(undefined, creator).privacyLevel).toBe('');
  });

  it("maps the server's field paths onto the form", () => {
    expect(
      serverFieldErrors({
        'spacedInterval.randomizeTime': 'schedules.errors.proRequired',
        date: 'errors.dateInPast',
        'posts.0.title': 'errors.titleTooLong',
        somethingElse: 'errors.invalidField',
      }),
    ).toEqual({
      'interval.randomizeTime': 'schedules.errors.proRequired',
      date: 'errors.dateInPast',
      'caption:0': 'errors.titleTooLong',
      form: 'errors.invalidField',
    });
  });
});

describe("TikTok's 'cannot post now'", () => {
  // Issue 11: once an account had reached today's limit, the form refused even a post for tomorrow.
  it('stops only a post going out now; not knowing the account stops everything', () => {
    const limited = { cannotPostReason: 'spam_risk_too_many_posts' };
    expect(creatorBlocksSubmit(limited, false, 'immediate')).toBe(true);
    expect(creatorBlocksSubmit(limited, false, 'scheduled')).toBe(false);
    expect(creatorBlocksSubmit(limited, false, 'spaced')).toBe(false);
    expect(creatorBlocksSubmit({ cannotPostReason: null }, false, 'immediate')).toBe(false);
    expect(creatorBlocksSubmit(undefined, true, 'scheduled')).toBe(true);
  });
});
