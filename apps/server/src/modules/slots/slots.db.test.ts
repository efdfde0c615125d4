import type { PostingSlots } from '@cadence/shared/schemas/planning';
import type { Post } from '@cadence/shared/schemas/schedule';
import { localDateOf, localTimeOf } from '@cadence/shared/schedule/planner';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  addVideo,
  api,
  connectTikTok,
  fieldsOf,
  scheduleBody,
  signUp,
  useScheduleTestApp,
  type TestUser,
} from '../schedules/test-kit.ts';

// Two posts per account per day, so that the cap shows within a few videos.
const kit = useScheduleTestApp('cadence-slots-', { TIKTOK_DAILY_POST_CAP: '2' });
const zone = 'America/New_York';
let alice: TestUser;
let bob: TestUser;
let account: string;
let bobAccount: string;
let videos: string[];

const local = (at: string) =>
  `${localDateOf(new Date(at), zone)} ${localTimeOf(new Date(at), zone)}`;

/** The content of an 'Add to queue' request for these videos (the form without a time). */
function queueBody(accountId: string, mediaIds: string[]) {
  const { publishType: _type, ...content } = scheduleBody(accountId, mediaIds);
  return content;
}

beforeAll(async () => {
  alice = await signUp(kit.t, 'alice.slots@example.com');
  bob = await signUp(kit.t, 'bob.slots@example.com');
  await api(kit.t, alice.cookie, 'PATCH', '/api/me', { timeZone: zone });
  account = await connectTikTok(kit.t, alice, 'alice_slots');
  bobAccount = await connectTikTok(kit.t, bob, 'bob_slots');
  videos = [];
  for (const name of ['q1', 'q2', 'q3', 'q4', 'q5']) {
    videos.push((await addVideo(kit.t, alice, kit.dir, name)).mediaId);
  }
}, 60_000);

describe('posting slots', () => {
  it('starts empty, then keeps weekly slots in the user’s zone with the next free times', async () => {
    const empty = await api(kit.t, alice.cookie, 'GET', `/api/accounts/${account}/slots`);
    expect(empty.statusCode).toBe(200);
    expect(empty.json<PostingSlots>()).toEqual({
      accountId: account,
      timeZone: zone,
      slots: [],
      nextFree: [],
      dailyCap: 2,
    });
    const week = [1, 2, 3, 4, 5, 6, 7];
    const set = await api(kit.t, alice.cookie, 'PUT', `/api/accounts/${account}/slots`, {
      slots: [
        ...week.map((weekday) => ({ weekday, time: '18:30' })),
        ...week.map((weekday) => ({ weekday, time: '09:00' })),
        ...week.map((weekday) => ({ weekday, time: '12:00' })),
        { weekday: 1, time: '09:00' },
      ],
    });
    expect(set.statusCode, set.body).toBe(200);
    const slots = set.json<PostingSlots>();
    expect(slots.slots).toHaveLength(21);
    expect(slots.slots.slice(0, 3)).toEqual([
      { weekday: 1, time: '09:00' },
      { weekday: 1, time: '12:00' },
      { weekday: 1, time: '18:30' },
    ]);
    expect(slots.nextFree).toHaveLength(10);
    const times = slots.nextFree.map((at) => Date.parse(at));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(times[0]).toBeGreaterThan(Date.now() - 1000);
    // Two per day at most (the cap), at the day's first slot times, in New York.
    for (const at of slots.nextFree) {
      expect(['09:00', '12:00', '18:30']).toContain(localTimeOf(new Date(at), zone));
    }
    const perDay = new Map<string, number>();
    for (const at of slots.nextFree) {
      const day = localDateOf(new Date(at), zone);
      perDay.set(day, (perDay.get(day) ?? 0) + 1);
    }
    expect(Math.max(...perDay.values())).toBeLessThanOrEqual(2);
  });

  it("'Add to queue' puts each video in the next free slot, and those slots are then taken", async () => {
    const before = (
      await api(kit.t, alice.cookie, 'GET', `/api/accounts/${account}/slots`)
    ).json<PostingSlots>();
    const response = await api(
      kit.t,
      alice.cookie,
      'POST',
      '/api/schedules/queue',
      queueBody(account, videos.slice(0, 3)),
    );
    expect(response.statusCode, response.body).toBe(201);
    const posts = response.json<{ posts: Post[] }>().posts;
    expect(posts.map((post) => post.dueAt)).toEqual(before.nextFree.slice(0, 3));
    expect(posts.map((post) => post.mediaId)).toEqual(videos.slice(0, 3));
    expect(posts.every((post) => post.timeZone === zone && post.status === 'pending')).toBe(true);
    const row = await kit.t.context.database.db
      .selectFrom('schedules')
      .select(['publish_type', 'time_zone'])
      .where('id', '=', posts[0]?.scheduleId ?? '')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ publish_type: 'queue', time_zone: zone });

    const after = (
      await api(kit.t, alice.cookie, 'GET', `/api/accounts/${account}/slots`)
    ).json<PostingSlots>();
    expect(after.nextFree.slice(0, 7)).toEqual(before.nextFree.slice(3, 10));
    // The next two go where the slots said, and never onto a day already at the cap.
    const more = await api(
      kit.t,
      alice.cookie,
      'POST',
      '/api/schedules/queue',
      queueBody(account, videos.slice(3, 5)),
    );
    expect(more.json<{ posts: Post[] }>().posts.map((post) => post.dueAt)).toEqual(
      after.nextFree.slice(0, 2),
    );
    expect(
      new Set([...posts, ...more.json<{ posts: Post[] }>().posts].map((p) => local(p.dueAt))).size,
    ).toBe(5);
  });

  it('refuses a queue with no slots, bad slots, and other users’ accounts', async () => {
    const empty = await connectTikTok(kit.t, alice, 'alice_no_slots');
    const noSlots = await api(
      kit.t,
      alice.cookie,
      'POST',
      '/api/schedules/queue',
      queueBody(empty, videos.slice(0, 1)),
    );
    expect(noSlots.statusCode).toBe(409);
    expect(fieldsOf(noSlots)).toEqual({ accountId: 'schedules.errors.noSlots' });

    const bad: [object, Record<string, string>][] = [
      [{ slots: [{ weekday: 8, time: '09:00' }] }, { 'slots.0.weekday': 'errors.invalidWeekday' }],
      [{ slots: [{ weekday: 1, time: '24:00' }] }, { 'slots.0.time': 'errors.invalidTime' }],
      [
        {
          slots: Array.from({ length: 101 }, (_, i) => ({
            weekday: 1,
            time: `${String(i % 24).padStart(2, '0')}:00`,
          })),
        },
        { slots: 'errors.tooManySlots' },
      ],
    ];
    for (const [body, fields] of bad) {
      const response = await api(
        kit.t,
        alice.cookie,
        'PUT',
        `/api/accounts/${account}/slots`,
        body,
      );
      expect(response.statusCode).toBe(400);
      expect(fieldsOf(response)).toEqual(fields);
    }

    for (const method of ['GET', 'PUT'] as const) {
      const foreign = await api(kit.t, alice.cookie, method, `/api/accounts/${bobAccount}/slots`, {
        slots: [{ weekday: 1, time: '09:00' }],
      });
      expect(foreign.statusCode, method).toBe(404);
    }
    expect((await api(kit.t, alice.cookie, 'GET', '/api/accounts/nope/slots')).statusCode).toBe(
      404,
    );
    const bobsSlots = (
      await api(kit.t, bob.cookie, 'GET', `/api/accounts/${bobAccount}/slots`)
    ).json<PostingSlots>();
    expect(bobsSlots.slots).toEqual([]);
    const foreignQueue = await api(
      kit.t,
      alice.cookie,
      'POST',
      '/api/schedules/queue',
      queueBody(bobAccount, videos.slice(0, 1)),
    );
    expect(foreignQueue.statusCode).toBe(409);
    expect(fieldsOf(foreignQueue)).toEqual({ accountId: 'errors.selectTikTokAccount' });
  });
});
