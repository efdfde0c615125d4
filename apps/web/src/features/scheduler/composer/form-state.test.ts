import type { CreatorInfo } from '@cadence/shared/schemas/account';
import { creatorOptionsForPost } from '@cadence/shared/schedule/creator-options';
import { zonedDateTimeToUtc } from '@cadence/shared/schedule/planner';
import { describe, expect, it } from 'vitest';
import { serverFieldErrors, shownAtFields, validateSchedule } from './form-errors.ts';
import { buildDraftBody, buildPreviewRequest, buildScheduleRequest } from './form-request.ts';
import {
  accountDefaults,
  hasUsualSettings,
  parseAtParam,
  capIntervalCount,
  clampIntervalCount,
  defaultStartDate,
  initialFormState,
  type ScheduleFormState,
} from './form-state.ts';
import {
  creatorBlocksSubmit,
  offeredPrivacyLevels,
  submitBlockedKey,
  unauditedPublicAccount,
  creatorOptionsNote,
  postsDueLaterDay,
} from './tiktok-rules.ts';

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
  lastKnown: null,
};
const videos = [
  { key: 'a', mediaId: 'm1' },
  { key: 'b', mediaId: 'm2' },
];

function filled(patch: Partial<ScheduleFormState> = {}): ScheduleFormState {
  return {
    ...initialFormState(
      accountId,
      zonedDateTimeToUtc('2030-01-05', '08:00', 'Europe/Paris'),
      'Europe/Paris',
    ),
    privacyLevel: 'SELF_ONLY',
    consent: true,
    ...patch,
  };
}

describe('scheduler form state', () => {
  it('starts as the spec says: immediate, today, 12:00, interval 1 × 1 hour from 09:00, nothing chosen for TikTok', () => {
    const zone = 'Europe/Paris';
    const state = initialFormState('', zonedDateTimeToUtc('2030-01-05', '23:30', zone), zone);
    expect(state).toMatchObject({
      publishType: 'immediate',
      date: '2030-01-05',
      time: '12:00',
      interval: {
        count: 1,
        value: 1,
        unit: 'hours',
        startTime: '09:00',
        // 23:30: today's 09:00 is gone, so the plan starts tomorrow.
        startDate: '2030-01-06',
        randomizeTime: false,
      },
      postponeOverCap: false,
      privacyLevel: '',
      allowComment: false,
      allowDuet: false,
      allowStitch: false,
      commercialContent: { enabled: false, yourBrand: false, brandedContent: false },
      consent: false,
    });
    const at = (time: string) => zonedDateTimeToUtc('2030-12-31', time, zone);
    expect(defaultStartDate(at('08:59'), zone)).toBe('2030-12-31');
    expect(defaultStartDate(at('09:00'), zone)).toBe('2030-12-31');
    expect(defaultStartDate(at('09:01'), zone)).toBe('2031-01-01');
  });

  it("starts on the person's today and 09:00, not the browser's", () => {
    // 02:00 on 6 January in Paris is 20:00 the day before in New York, 10:00 in Tokyo.
    const instant = zonedDateTimeToUtc('2030-01-06', '02:00', 'Europe/Paris');
    const fresh = (zone: string) => {
      const { date, interval } = initialFormState('', instant, zone);
      return [date, interval.startDate];
    };
    expect(fresh('Europe/Paris')).toEqual(['2030-01-06', '2030-01-06']);
    expect(fresh('America/New_York')).toEqual(['2030-01-05', '2030-01-06']);
    expect(fresh('Asia/Tokyo')).toEqual(['2030-01-06', '2030-01-07']);
  });

  it('reports every missing choice at once, with the translation keys of the spec', () => {
    const result = validateSchedule(
      buildScheduleRequest(initialFormState('', new Date(), 'Europe/Paris'), [], 'Europe/Paris'),
    );
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
    expect(immediate.ok && immediate.request.body).toMatchObject({
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
        interval: {
          count: 5,
          value: 2,
          unit: 'days',
          startTime: '07:15',
          startDate: '2030-02-03',
          randomizeTime: false,
        },
      }),
      videos,
      'Europe/Paris',
    );
    expect(spaced).toMatchObject({
      spacedInterval: {
        count: 2,
        value: 2,
        unit: 'days',
        startTime: '07:15',
        startDate: '2030-02-03',
      },
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
          interval: {
            count: 0,
            value: 0,
            unit: 'hours',
            startTime: '09:00',
            startDate: '2030-01-05',
            randomizeTime: false,
          },
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
    // Branded content cannot be private: 'Only me' is never filled in for it.
    expect(
      accountDefaults({ ...settings, defaultPrivacyLevel: 'SELF_ONLY' }, creator, true)
        .privacyLevel,
    ).toBe('');
  });

  it("disables publishing while the disclosure is on with neither 'Your brand' nor 'Branded content'", () => {
    const off = { enabled: false, yourBrand: false, brandedContent: false };
    const blocked = (commercialContent: typeof off) =>
      submitBlockedKey(commercialContent, creator, true);
    expect(blocked(off)).toBeNull();
    expect(blocked({ ...off, enabled: true })).toBe('errors.commercialContentChoice');
    expect(blocked({ ...off, enabled: true, yourBrand: true })).toBeNull();
    expect(blocked({ ...off, enabled: true, brandedContent: true })).toBeNull();
  });

  it("offers only 'Only me', on private accounts only, while TikTok has not audited the app", () => {
    const off = { enabled: false, yourBrand: false, brandedContent: false };
    const open: Pick<CreatorInfo, 'privacyLevelOptions'> = {
      privacyLevelOptions: ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'SELF_ONLY'],
    };
    const closed: Pick<CreatorInfo, 'privacyLevelOptions'> = {
      privacyLevelOptions: ['FOLLOWER_OF_CREATOR', 'MUTUAL_FOLLOW_FRIENDS', 'SELF_ONLY'],
    };
    expect(offeredPrivacyLevels(open, true)).toEqual(open.privacyLevelOptions);
    expect(offeredPrivacyLevels(open, false)).toEqual(['SELF_ONLY']);
    expect(offeredPrivacyLevels(undefined, false)).toEqual([]);
    expect(unauditedPublicAccount(open, false)).toBe(true);
    expect(unauditedPublicAccount(open, true)).toBe(false);
    expect(unauditedPublicAccount(closed, false)).toBe(false);
    expect(submitBlockedKey(off, open, false)).toBe('scheduler.form.unaudited.publicAccount');
    expect(submitBlockedKey(off, closed, false)).toBeNull();
  });

  // Issue 12: TikTok's inbox init takes no post_info; the creator sets privacy in the TikTok app.
  it('sends an inbox draft without privacy or interactions, and does not block it as a public post', () => {
    const inbox = validateSchedule(
      buildScheduleRequest(
        filled({ delivery: 'inbox', privacyLevel: '', allowComment: true }),
        videos,
        'Europe/Paris',
      ),
    );
    expect(inbox.ok).toBe(true);
    if (!inbox.ok) return;
    expect(inbox.request.body).toMatchObject({ delivery: 'inbox', allowComment: false });
    expect(inbox.request.body.privacyLevel).toBeUndefined();
    // A privacy chosen before switching to the inbox is not sent either, nor labels (the form
    // hides them: an enabled disclosure with no choice would be refused on a hidden field).
    expect(
      buildScheduleRequest(
        filled({
          delivery: 'inbox',
          commercialContent: { enabled: true, yourBrand: false, brandedContent: false },
          isAigc: true,
        }),
        videos,
        'Europe/Paris',
      ) as object,
    ).toMatchObject({
      privacyLevel: undefined,
      commercialContent: { enabled: false, yourBrand: false, brandedContent: false },
      isAigc: false,
    });
    // A direct post still needs one.
    const direct = validateSchedule(
      buildScheduleRequest(filled({ privacyLevel: '' }), videos, 'Europe/Paris'),
    );
    expect(direct.ok).toBe(false);
    if (direct.ok) return;
    expect(direct.errors).toMatchObject({ privacyLevel: 'errors.selectPrivacy' });
    const off = { enabled: false, yourBrand: false, brandedContent: false };
    const open = { privacyLevelOptions: ['PUBLIC_TO_EVERYONE' as const, 'SELF_ONLY' as const] };
    expect(submitBlockedKey(off, open, false, 'inbox')).toBeNull();
    // A disclosure switched on before choosing the inbox blocks nothing: the form hides it.
    const undecided = { enabled: true, yourBrand: false, brandedContent: false };
    expect(submitBlockedKey(undecided, open, true, 'inbox')).toBeNull();
    expect(submitBlockedKey(undecided, open, true, 'direct')).toBe(
      'errors.commercialContentChoice',
    );
    expect(submitBlockedKey(off, open, false, 'direct')).toBe(
      'scheduler.form.unaudited.publicAccount',
    );
  });

  it('offers usual settings only when the account saved some', () => {
    const none = {
      defaultPrivacyLevel: null,
      allowComment: false,
      allowDuet: false,
      allowStitch: false,
    };
    expect(hasUsualSettings(undefined)).toBe(false);
    expect(hasUsualSettings(none)).toBe(false);
    expect(hasUsualSettings({ ...none, allowDuet: true })).toBe(true);
    expect(hasUsualSettings({ ...none, defaultPrivacyLevel: 'SELF_ONLY' })).toBe(true);
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

describe('a refusal said once', () => {
  it('lets the plan preview leave out what the form already shows at its fields', () => {
    const pastDate = { date: 'errors.dateInPast' };
    expect(shownAtFields(pastDate, { date: 'errors.dateInPast' })).toBe(true);
    // Not yet shown there (before a submit), or another message there: the preview says it.
    expect(shownAtFields(pastDate, {})).toBe(false);
    expect(shownAtFields(pastDate, { date: 'errors.dateRequired' })).toBe(false);
    expect(
      shownAtFields({ ...pastDate, time: 'errors.timeRequired' }, { date: 'errors.dateInPast' }),
    ).toBe(false);
    expect(shownAtFields({}, {})).toBe(false);
  });
});

describe('planning in the form (issue 11)', () => {
  it("sends 'Add to queue' to the queue's schema: no time, no publish type, the content checked", () => {
    const queued = validateSchedule(
      buildScheduleRequest(filled({ publishType: 'queue', date: '' }), videos, 'Europe/Paris'),
    );
    expect(queued.ok && queued.request.kind).toBe('queue');
    const body = queued.ok ? queued.request.body : {};
    expect(body).toMatchObject({ accountId, mediaIds: ['m1', 'm2'], timeZone: 'Europe/Paris' });
    expect(body).not.toHaveProperty('publishType');
    expect(body).not.toHaveProperty('date');
    // The content's rules still apply: no privacy chosen is reported on its field.
    expect(
      validateSchedule(
        buildScheduleRequest(
          filled({ publishType: 'queue', privacyLevel: '' }),
          videos,
          'Europe/Paris',
        ),
      ),
    ).toEqual({ ok: false, errors: { privacyLevel: 'errors.selectPrivacy' } });
  });

  it('asks to postpone posts over the cap, and names the draft it came from, only when scheduling', () => {
    const draftId = '9d0e2f1d-5a2b-4c61-9c11-0b6f3f0e7c1a';
    const scheduled = buildScheduleRequest(
      filled({ publishType: 'scheduled', date: '2030-02-01', postponeOverCap: true }),
      videos,
      'Europe/Paris',
      draftId,
    );
    expect(scheduled).toMatchObject({ overCap: 'postpone', draftId });
    expect(validateSchedule(scheduled).ok).toBe(true);
    const plain = buildScheduleRequest(filled(), videos, 'Europe/Paris');
    expect(plain).not.toHaveProperty('overCap');
    expect(plain).not.toHaveProperty('draftId');
    // The queue's endpoint knows neither.
    const queued = buildScheduleRequest(
      filled({ publishType: 'queue', postponeOverCap: true }),
      videos,
      'Europe/Paris',
      draftId,
    );
    expect(queued).not.toHaveProperty('overCap');
    expect(queued).not.toHaveProperty('draftId');
  });

  it('previews a spaced plan from its start date, whatever the content still lacks', () => {
    const state = filled({
      publishType: 'spaced',
      privacyLevel: '',
      consent: false,
      interval: {
        count: 1,
        value: 2,
        unit: 'hours',
        startTime: '10:30',
        startDate: '2030-03-30',
        randomizeTime: true,
      },
    });
    expect(buildPreviewRequest(state, videos, 'Europe/Paris')).toEqual({
      accountId,
      mediaIds: ['m1', 'm2'],
      publishType: 'spaced',
      timeZone: 'Europe/Paris',
      spacedInterval: {
        count: 1,
        value: 2,
        unit: 'hours',
        startTime: '10:30',
        startDate: '2030-03-30',
        randomizeTime: true,
      },
    });
    // Nothing to preview: no account, no ready video, an emptied start date, immediate or queue.
    expect(buildPreviewRequest({ ...state, accountId: '' }, videos, 'Europe/Paris')).toBeNull();
    expect(buildPreviewRequest(state, [{ key: 'a', mediaId: null }], 'Europe/Paris')).toBeNull();
    expect(
      buildPreviewRequest(
        { ...state, interval: { ...state.interval, startDate: '2030-02-30' } },
        videos,
        'Europe/Paris',
      ),
    ).toBeNull();
    expect(buildPreviewRequest(filled(), videos, 'Europe/Paris')).toBeNull();
    expect(
      buildPreviewRequest(filled({ publishType: 'queue' }), videos, 'Europe/Paris'),
    ).toBeNull();
    expect(
      buildPreviewRequest(
        filled({ publishType: 'scheduled', date: '2030-02-01', time: '18:30' }),
        videos,
        'Europe/Paris',
      ),
    ).toMatchObject({ publishType: 'scheduled', date: '2030-02-01', time: '18:30' });
  });

  it('saves as a draft whatever is there: no account or privacy yet, uploads still running left out', () => {
    const body = buildDraftBody(
      filled({
        accountId: '',
        privacyLevel: '',
        captions: { a: 'Premier' },
        covers: { b: 1200 },
        isAigc: true,
      }),
      [...videos, { key: 'c', mediaId: null }],
    );
    expect(body).toEqual({
      accountId: null,
      mediaIds: ['m1', 'm2'],
      posts: [
        { mediaId: 'm1', title: 'Premier' },
        // Issue 12: the cover frame and the AI label are kept with the draft.
        { mediaId: 'm2', title: '', coverTimestampMs: 1200 },
      ],
      privacyLevel: null,
      allowComment: false,
      allowDuet: false,
      allowStitch: false,
      commercialContent: { enabled: false, yourBrand: false, brandedContent: false },
      isAigc: true,
      delivery: 'direct',
    });
  });

  it('opens on ?at= as scheduled at that local date and time, and ignores anything else', () => {
    expect(parseAtParam('2030-12-01T18:30')).toEqual({
      publishType: 'scheduled',
      date: '2030-12-01',
      time: '18:30',
    });
    for (const bad of [
      null,
      '',
      '2030-12-01',
      '2030-12-01T18:30:00',
      '2030-12-01T18:30Z',
      '2030-02-30T10:00',
      '2030-12-01T24:00',
      '2030-12-01T12:60',
      'tomorrow',
    ]) {
      expect(parseAtParam(bad)).toBeNull();
    }
  });
});

describe("TikTok's 'cannot post now'", () => {
  const today = '2030-06-10';
  const lastKnown = {
    privacyLevelOptions: ['SELF_ONLY' as const],
    commentDisabled: false,
    duetDisabled: false,
    stitchDisabled: true,
    maxVideoPostDurationSec: 300,
    fetchedAt: '2030-06-09T08:00:00.000Z',
  };
  const capped = {
    ...creator,
    privacyLevelOptions: [],
    cannotPostReason: 'spam_risk_too_many_posts',
    lastKnown,
  };
  const on = (publishType: ScheduleFormState['publishType'], date: string) =>
    postsDueLaterDay(
      {
        publishType,
        date,
        interval: { ...initialFormState('', new Date(), 'UTC').interval, startDate: date },
      },
      today,
    );

  it('tells a later day from today for each way of scheduling', () => {
    expect(on('immediate', '2030-06-11')).toBe(false);
    expect(on('scheduled', today)).toBe(false);
    expect(on('scheduled', '2030-06-11')).toBe(true);
    expect(on('spaced', today)).toBe(false);
    expect(on('spaced', '2030-06-11')).toBe(true);
    // The server starts the queue tomorrow while TikTok refuses posts today.
    expect(on('queue', today)).toBe(true);
  });

  // Issue 47: a capped account offered no privacy, so no post could be made for any day.
  it("stops a post due today, never one due on a later day once TikTok's last options are known", () => {
    expect(creatorBlocksSubmit(capped, false, false)).toBe(true);
    expect(creatorBlocksSubmit(capped, false, true)).toBe(false);
    expect(creatorBlocksSubmit({ ...capped, lastKnown: null }, false, true)).toBe(true);
    expect(creatorBlocksSubmit(creator, false, false)).toBe(false);
    expect(creatorBlocksSubmit(undefined, true, true)).toBe(true);
    expect(creatorOptionsNote(capped, creatorOptionsForPost(capped, true))).toEqual({
      kind: 'reportedOn',
      fetchedAt: lastKnown.fetchedAt,
    });
    expect(creatorOptionsNote(capped, null)).toEqual({ kind: 'laterDayOnly' });
    expect(creatorOptionsNote({ ...capped, lastKnown: null }, null)).toEqual({ kind: 'noneKnown' });
  });

  it('keeps a suspended account blocked on every day, without a note on the options', () => {
    const banned = { ...capped, cannotPostReason: 'spam_risk_user_banned_from_posting' };
    expect(creatorBlocksSubmit(banned, false, true)).toBe(true);
    expect(creatorOptionsNote(banned, null)).toBeNull();
  });
});
