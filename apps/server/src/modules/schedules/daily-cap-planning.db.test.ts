import type { CreatorInfo } from '@cadence/shared/schemas/account';
import type { SchedulePreview } from '@cadence/shared/schemas/planning';
import {
  addDaysToDate,
  localDateOf,
  localTimeOf,
  zonedDateTimeToUtc,
} from '@cadence/shared/schedule/planner';
import { beforeAll, describe, expect, it } from 'vitest';
import { seedPosts } from '../../test-support/seed-posts.ts';
import {
  addVideo,
  api,
  connectTikTok,
  createSchedule,
  fieldsOf,
  scheduleBody,
  signUp,
  useScheduleTestApp,
  type TestUser,
} from './test-kit.ts';

// A cap of 3 posts per account per day keeps the fixtures small.
const kit = useScheduleTestApp('cadence-cap-planning-', { TIKTOK_DAILY_POST_CAP: '3' });
const { sandbox } = kit;
const zone = 'Europe/Paris';
let alice: TestUser;
let account: string;
let videos: string[];

beforeAll(async () => {
  alice = await signUp(kit.t, 'alice.cap@example.com');
  await api(kit.t, alice.cookie, 'PATCH', '/api/me', { timeZone: zone });
  account = await connectTikTok(kit.t, alice, 'alice_capped');
  videos = [];
  for (const name of ['c1', 'c2', 'c3', 'c4']) {
    videos.push((await addVideo(kit.t, alice, kit.dir, name, { durationSeconds: 3 })).mediaId);
  }
}, 60_000);

/** Four videos, one per hour from 10:00 on `date`, in Paris. */
const hourly = (date: string) => ({
  accountId: account,
  mediaIds: videos,
  publishType: 'spaced' as const,
  timeZone: zone,
  spacedInterval: {
    count: 1,
    value: 1,
    unit: 'hours' as const,
    startTime: '10:00',
    startDate: date,
    randomizeTime: false,
  },
});

// Europe/Paris falls back on 2099-10-25 (03:00 CEST → 02:00 CET): the plan's hours are exact
// durations (02:30 happens twice), its days keep the wall-clock time; preview and schedule agree
// and the posts keep the zone they were planned in.
describe('a spaced plan across a DST change', () => {
  const spacedFrom = (startDate: string, startTime: string, unit: 'hours' | 'days') => ({
    ...hourly(startDate),
    mediaIds: videos.slice(0, 3),
    spacedInterval: { ...hourly(startDate).spacedInterval, startTime, unit },
  });

  it.each([
    {
      unit: 'hours' as const,
      start: ['2099-10-25', '01:30'] as const,
      // 01:30 CEST, 02:30 CEST, 02:30 CET (the second time), each one hour apart.
      dueAt: ['2099-10-24T23:30:00.000Z', '2099-10-25T00:30:00.000Z', '2099-10-25T01:30:00.000Z'],
      wall: ['01:30', '02:30', '02:30'],
    },
    {
      unit: 'days' as const,
      start: ['2099-10-24', '09:00'] as const,
      // 09:00 every day: 07:00 UTC in summer time, 08:00 UTC once the clocks went back.
      dueAt: ['2099-10-24T07:00:00.000Z', '2099-10-25T08:00:00.000Z', '2099-10-26T08:00:00.000Z'],
      wall: ['09:00', '09:00', '09:00'],
    },
  ])('every 1 $unit: preview, posts and their zone', async ({ unit, start, dueAt, wall }) => {
    const body = spacedFrom(start[0], start[1], unit);
    const response = await api(kit.t, alice.cookie, 'POST', '/api/schedules/preview', body);
    expect(response.statusCode, response.body).toBe(200);
    const preview = response.json<SchedulePreview>();
    expect(preview.posts.map((post) => post.dueAt)).toEqual(dueAt);
    expect(preview.posts.map((post) => localTimeOf(new Date(post.dueAt), zone))).toEqual(wall);

    const created = await createSchedule(kit.t, alice, scheduleBody(account, body.mediaIds, body));
    expect(created.posts.map((post) => post.dueAt)).toEqual(dueAt);
    const stored = await api(kit.t, alice.cookie, 'GET', `/api/posts/${created.posts[2]?.id}`);
    expect(stored.json<{ timeZone: string; dueAt: string }>()).toMatchObject({
      timeZone: zone,
      dueAt: dueAt[2],
    });
  });
});

describe('POST /api/schedules/preview', () => {
  it('shows every slot, each day against the cap, and where the posts beyond it could go', async () => {
    // 2099-03-28 already holds 1 post of this account; 2099-03-29 holds 3 (full).
    await seedPosts(
      kit.t.context.database.db,
      { userId: alice.id, accountId: account, username: 'alice_capped', mediaId: videos[0] ?? '' },
      [
        { dueAt: zonedDateTimeToUtc('2099-03-28', '08:00', zone) },
        ...Array.from({ length: 3 }, () => ({
          dueAt: zonedDateTimeToUtc('2099-03-29', '08:00', zone),
          status: 'completed' as const,
        })),
        // Failed and cancelled posts do not use up the cap.
        { dueAt: zonedDateTimeToUtc('2099-03-30', '08:00', zone), status: 'failed' as const },
        { dueAt: zonedDateTimeToUtc('2099-03-30', '08:00', zone), status: 'cancelled' as const },
      ],
    );
    const response = await api(
      kit.t,
      alice.cookie,
      'POST',
      '/api/schedules/preview',
      hourly('2099-03-28'),
    );
    expect(response.statusCode, response.body).toBe(200);
    const preview = response.json<SchedulePreview>();
    expect(preview).toMatchObject({ dailyCap: 3, timeZone: zone });
    expect(preview.days).toEqual([
      { date: '2099-03-28', existing: 1, proposed: 4, cap: 3, over: 2 },
    ]);
    expect(
      preview.posts.map((post) => [post.dueAt, post.date, post.overCap, post.suggestedDueAt]),
    ).toEqual([
      ['2099-03-28T09:00:00.000Z', '2099-03-28', false, null],
      ['2099-03-28T10:00:00.000Z', '2099-03-28', false, null],
      // 29 March is full: both go to the 30th, same time of day (summer time by then).
      ['2099-03-28T11:00:00.000Z', '2099-03-28', true, '2099-03-30T10:00:00.000Z'],
      ['2099-03-28T12:00:00.000Z', '2099-03-28', true, '2099-03-30T11:00:00.000Z'],
    ]);
    expect(preview.posts.every((post) => post.earliest === post.dueAt)).toBe(true);

    // overCap: 'postpone' creates exactly what the preview suggested.
    const created = await createSchedule(kit.t, alice, {
      ...scheduleBody(account, videos, hourly('2099-03-28')),
      overCap: 'postpone',
    });
    expect(created.posts.map((post) => post.dueAt)).toEqual(
      preview.posts.map((post) => post.suggestedDueAt ?? post.dueAt),
    );
  });

  it('shows the ±1 h window of a randomized plan to Pro users only', async () => {
    const body = {
      ...hourly('2099-05-05'),
      spacedInterval: { ...hourly('2099-05-05').spacedInterval, randomizeTime: true },
    };
    const refused = await api(kit.t, alice.cookie, 'POST', '/api/schedules/preview', body);
    expect(refused.statusCode).toBe(403);
    await kit.t.context.users.setProByEmail(alice.email, true);
    try {
      const preview = (
        await api(kit.t, alice.cookie, 'POST', '/api/schedules/preview', body)
      ).json<SchedulePreview>();
      expect(preview.posts[0]).toMatchObject({
        dueAt: '2099-05-05T08:00:00.000Z',
        earliest: '2099-05-05T07:00:00.000Z',
        latest: '2099-05-05T09:00:00.000Z',
      });
    } finally {
      await kit.t.context.users.setProByEmail(alice.email, false);
    }
  });

  it('refuses a start date that has passed, and creates nothing', async () => {
    const past = await api(
      kit.t,
      alice.cookie,
      'POST',
      '/api/schedules/preview',
      hourly('2020-01-01'),
    );
    expect(past.statusCode).toBe(400);
    expect(fieldsOf(past)).toEqual({ 'spacedInterval.startDate': 'errors.dateInPast' });
    const bad = await api(
      kit.t,
      alice.cookie,
      'POST',
      '/api/schedules/preview',
      hourly('2099-02-30'),
    );
    expect(fieldsOf(bad)).toEqual({ 'spacedInterval.startDate': 'errors.invalidDate' });
    const create = await api(
      kit.t,
      alice.cookie,
      'POST',
      '/api/schedules',
      scheduleBody(account, videos, hourly('2020-01-01')),
    );
    expect(fieldsOf(create)).toEqual({ 'spacedInterval.startDate': 'errors.dateInPast' });
  });
});

describe("TikTok's answers that must not block a later post", () => {
  it("'cannot post now' refuses only a post due now", async () => {
    sandbox().control.setUserFlags(
      { username: 'alice_capped' },
      { cannotPost: 'spam_risk_too_many_posts' },
    );
    try {
      const now = await api(
        kit.t,
        alice.cookie,
        'POST',
        '/api/schedules',
        scheduleBody(account, [videos[0] ?? '']),
      );
      expect(now.statusCode).toBe(409);
      expect(fieldsOf(now)).toEqual({ accountId: 'schedules.errors.cannotPostNow' });
      const tomorrow = addDaysToDate(localDateOf(new Date(), zone), 1);
      const later = await createSchedule(
        kit.t,
        alice,
        scheduleBody(account, [videos[0] ?? ''], {
          publishType: 'scheduled',
          date: tomorrow,
          time: '12:00',
        }),
      );
      expect(later.posts[0]).toMatchObject({
        status: 'pending',
        privacyLevel: 'PUBLIC_TO_EVERYONE',
      });
      const info = await api(kit.t, alice.cookie, 'GET', `/api/accounts/${account}/creator-info`);
      expect(info.json<CreatorInfo>()).toMatchObject({
        cannotPostReason: 'spam_risk_too_many_posts',
        maxVideoPostDurationSec: null,
      });
    } finally {
      sandbox().control.setUserFlags({ username: 'alice_capped' }, { cannotPost: null });
    }
  });

  it('enforces no duration limit when creator_info gives none (0 or missing)', async () => {
    for (const limit of [0, null]) {
      sandbox().control.setUserFlags(
        { username: 'alice_capped' },
        { maxVideoPostDurationSec: limit },
      );
      const info = await api(kit.t, alice.cookie, 'GET', `/api/accounts/${account}/creator-info`);
      expect(info.json<CreatorInfo>().maxVideoPostDurationSec).toBeNull();
      await createSchedule(
        kit.t,
        alice,
        scheduleBody(account, [videos[1] ?? ''], {
          publishType: 'scheduled',
          date: '2099-12-01',
          time: '09:00',
        }),
      );
    }
    // A real limit is still enforced.
    sandbox().control.setUserFlags({ username: 'alice_capped' }, { maxVideoPostDurationSec: 2 });
    const tooLong = await api(
      kit.t,
      alice.cookie,
      'POST',
      '/api/schedules',
      scheduleBody(account, [videos[1] ?? '']),
    );
    expect(fieldsOf(tooLong)).toEqual({ mediaIds: 'schedules.errors.videoTooLong' });
    sandbox().control.setUserFlags({ username: 'alice_capped' }, { maxVideoPostDurationSec: 600 });
  });
});
