import { describe, expect, it } from 'vitest';
import { planSchedule } from '../schedule/planner.ts';
import type { CreateScheduleInput } from './schedule.ts';
import {
  createScheduleSchema,
  postSchema,
  postStatusSchema,
  scheduleErrorKeys,
} from './schedule.ts';

const accountId = '0b7f3c9e-5a4d-4e2b-9c1f-2d3e4f5a6b7c';

function validRequest(): CreateScheduleInput {
  return {
    accountId,
    mediaIds: ['media-1', 'media-2'],
    publishType: 'immediate',
    timeZone: 'Europe/Paris',
    posts: [
      { mediaId: 'media-1', title: 'Premier #fyp' },
      { mediaId: 'media-2', title: '' },
    ],
    privacyLevel: 'SELF_ONLY',
    allowComment: false,
    allowDuet: false,
    allowStitch: false,
    commercialContent: { enabled: false, yourBrand: false, brandedContent: false },
    consent: true,
  };
}

/** Issues as `path: message`, the way the form maps them onto fields. */
function issuesOf(input: unknown): string[] {
  const result = createScheduleSchema.safeParse(input);
  return result.success ? [] : result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
}

describe('createScheduleSchema', () => {
  it('accepts a complete immediate request', () => {
    expect(issuesOf(validRequest())).toEqual([]);
  });

  it('asks to select a video and an account on an empty form, with translation keys', () => {
    const issues = issuesOf({ ...validRequest(), accountId: '', mediaIds: [], posts: [] });
    expect(issues).toEqual([
      'accountId: errors.selectTikTokAccount',
      'mediaIds: errors.selectVideo',
    ]);
  });

  it('asks to select a video and an account when the fields are missing altogether', () => {
    const rest: Partial<CreateScheduleInput> = validRequest();
    delete rest.accountId;
    delete rest.mediaIds;
    expect(issuesOf(rest)).toEqual(
      expect.arrayContaining([
        'accountId: errors.selectTikTokAccount',
        'mediaIds: errors.selectVideo',
      ]),
    );
  });

  it('requires date and time for the scheduled method', () => {
    expect(issuesOf({ ...validRequest(), publishType: 'scheduled' })).toEqual([
      'date: errors.dateRequired',
      'time: errors.timeRequired',
    ]);
    expect(
      issuesOf({ ...validRequest(), publishType: 'scheduled', date: '2025-06-11', time: '12:00' }),
    ).toEqual([]);
  });

  it('refuses dates and times that do not exist', () => {
    const issues = issuesOf({
      ...validRequest(),
      publishType: 'scheduled',
      date: '2025-02-30',
      time: '24:00',
    });
    expect(issues).toEqual(['date: errors.invalidDate', 'time: errors.invalidTime']);
  });

  it('requires the interval for the spaced method and validates its fields', () => {
    expect(issuesOf({ ...validRequest(), publishType: 'spaced' })).toEqual([
      'spacedInterval: errors.spacedIntervalRequired',
    ]);
    const spacedInterval = {
      count: 5, // more than the 2 videos: allowed, the planner reduces it
      value: 1,
      unit: 'hours',
      startTime: '09:00',
      randomizeTime: false,
    };
    expect(issuesOf({ ...validRequest(), publishType: 'spaced', spacedInterval })).toEqual([]);
    expect(
      issuesOf({
        ...validRequest(),
        publishType: 'spaced',
        spacedInterval: { ...spacedInterval, count: 0, value: 1.5, unit: 'weeks', startTime: '9h' },
      }),
    ).toEqual([
      'spacedInterval.count: errors.invalidIntervalCount',
      'spacedInterval.value: errors.invalidIntervalValue',
      'spacedInterval.unit: errors.invalidIntervalUnit',
      'spacedInterval.startTime: errors.invalidTime',
    ]);
    expect(
      issuesOf({
        ...validRequest(),
        publishType: 'spaced',
        spacedInterval: { ...spacedInterval, value: 1001 },
      }),
    ).toEqual(['spacedInterval.value: errors.invalidIntervalValue']);
  });

  it('refuses an unknown time zone', () => {
    expect(issuesOf({ ...validRequest(), timeZone: 'Europe/Atlantis' })).toEqual([
      'timeZone: errors.invalidTimeZone',
    ]);
  });

  it('refuses duplicate videos and more than 50', () => {
    const duplicated = { ...validRequest(), mediaIds: ['media-1', 'media-1'] };
    expect(issuesOf(duplicated)).toEqual(
      expect.arrayContaining(['mediaIds.1: errors.duplicateVideo']),
    );
    const many = Array.from({ length: 51 }, (_, i) => `media-${i}`);
    const tooMany = {
      ...validRequest(),
      mediaIds: many,
      posts: many.map((mediaId) => ({ mediaId, title: '' })),
    };
    expect(issuesOf(tooMany)).toEqual(['mediaIds: errors.tooManyVideos']);
  });

  it('needs exactly one caption per selected video', () => {
    const missing = { ...validRequest(), posts: [{ mediaId: 'media-1', title: '' }] };
    expect(issuesOf(missing)).toEqual(['posts: errors.postsMismatch']);
    const foreign = {
      ...validRequest(),
      posts: [
        { mediaId: 'media-1', title: '' },
        { mediaId: 'media-9', title: '' },
      ],
    };
    expect(issuesOf(foreign)).toEqual(['posts: errors.postsMismatch']);
  });

  it('limits captions to 2200 characters', () => {
    const request = validRequest();
    const posts = [
      { mediaId: 'media-1', title: 'a'.repeat(2200) },
      { mediaId: 'media-2', title: 'a'.repeat(2201) },
    ];
    expect(issuesOf({ ...request, posts })).toEqual(['posts.1.title: errors.titleTooLong']);
  });

  it('requires a choice when commercial content is disclosed', () => {
    const commercialContent = { enabled: true, yourBrand: false, brandedContent: false };
    expect(issuesOf({ ...validRequest(), commercialContent })).toEqual([
      'commercialContent: errors.commercialContentChoice',
    ]);
    expect(
      issuesOf({ ...validRequest(), commercialContent: { ...commercialContent, yourBrand: true } }),
    ).toEqual([]);
  });

  it('refuses private branded content', () => {
    const commercialContent = { enabled: true, yourBrand: false, brandedContent: true };
    expect(issuesOf({ ...validRequest(), commercialContent })).toEqual([
      'privacyLevel: errors.brandedContentPrivate',
    ]);
    expect(
      issuesOf({ ...validRequest(), commercialContent, privacyLevel: 'MUTUAL_FOLLOW_FRIENDS' }),
    ).toEqual([]);
  });

  it('reports every problem at once: no privacy, no consent, and a missing date', () => {
    const rest: Partial<CreateScheduleInput> = validRequest();
    delete rest.privacyLevel;
    // Privacy is required by a cross-field rule (an inbox draft has none), reported with the others.
    expect(issuesOf({ ...rest, consent: false, publishType: 'scheduled', time: '12:00' })).toEqual([
      'consent: errors.consentRequired',
      'privacyLevel: errors.selectPrivacy',
      'date: errors.dateRequired',
    ]);
    expect(issuesOf({ ...rest, delivery: 'inbox' })).toEqual([]);
  });

  it('never crashes on a body of the wrong shape, and still speaks in keys', () => {
    for (const body of [null, 'x', [], { mediaIds: 'x', posts: [null], commercialContent: 1 }]) {
      const result = createScheduleSchema.safeParse(body);
      expect(result.success).toBe(false);
      for (const issue of result.error?.issues ?? []) {
        expect(issue.message).toMatch(/^errors\.[a-zA-Z]+$/);
      }
    }
  });

  it('puts only listed translation keys in field messages', () => {
    const rest: Partial<CreateScheduleInput> = validRequest();
    delete rest.privacyLevel;
    const messy = {
      ...rest,
      accountId: 42,
      mediaIds: ['a', 'a', ''],
      publishType: 'later',
      timeZone: 3,
      date: 20250611,
      spacedInterval: 'hourly',
      posts: [{ mediaId: 'a', title: 7 }],
      allowComment: 'yes',
      commercialContent: { enabled: 'on' },
      consent: 'true',
    };
    const keys: readonly string[] = scheduleErrorKeys;
    const messages = issuesOf(messy).map((issue) => issue.split(': ')[1]);
    expect(messages.length).toBeGreaterThan(8);
    expect(messages.filter((message) => !keys.includes(message ?? ''))).toEqual([]);
  });
});

describe('createScheduleSchema with the planner', () => {
  it('feeds a parsed request straight into planSchedule', () => {
    const request = createScheduleSchema.parse({
      ...validRequest(),
      publishType: 'spaced',
      spacedInterval: {
        count: 1,
        value: 2,
        unit: 'days',
        startTime: '09:00',
        randomizeTime: false,
      },
    });
    const plan = planSchedule(request, new Date('2025-06-10T10:00:00Z'));
    expect(plan.ok && plan.posts.map((p) => [p.mediaId, p.dueAt.toISOString()])).toEqual([
      ['media-1', '2025-06-11T07:00:00.000Z'],
      ['media-2', '2025-06-13T07:00:00.000Z'],
    ]);
  });
});

describe('postSchema', () => {
  it('accepts a post as the API returns it and refuses an unknown status', () => {
    const post = {
      id: 'p1',
      scheduleId: 's1',
      accountId,
      accountUsername: 'creator',
      mediaId: 'media-1',
      thumbnailUrl: null,
      title: 'Premier',
      dueAt: '2025-06-11T07:00:00.000Z',
      randomized: true,
      jitterMinutes: -12,
      status: 'completed',
      failReason: null,
      tiktokPostId: '7351234567890123456',
      tiktokPostUrl: 'https://www.tiktok.com/@creator/video/7351234567890123456',
      createdAt: '2025-06-10T10:00:00.000Z',
      timeZone: 'Europe/Paris',
      privacyLevel: 'PUBLIC_TO_EVERYONE',
      delivery: 'direct',
      allowComment: true,
      allowDuet: false,
      allowStitch: false,
      note: 'schedules.notes.postponedDailyCap',
      postponedFrom: '2025-06-10T07:00:00.000Z',
      outcomeAt: '2025-06-11T07:00:04.000Z',
    };
    expect(postSchema.parse(post)).toEqual(post);
    expect(postSchema.safeParse({ ...post, status: 'queued' }).success).toBe(false);
    expect(postSchema.safeParse({ ...post, delivery: 'draft' }).success).toBe(false);
    expect(postStatusSchema.options).toEqual([
      'pending',
      'publishing',
      'completed',
      'failed',
      'cancelled',
    ]);
  });
});
