import { failRemedy, publishFailReasons } from '@cadence/shared/publish-fail-reasons';
import type { Post } from '@cadence/shared/schemas/schedule';
import { nextOccurrence } from '@cadence/shared/schedule/planner';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import {
  addVideo,
  api,
  connectTikTok,
  createSchedule,
  listPosts,
  scheduleBody,
  signUp,
  useScheduleTestApp,
  type TestUser,
} from './test-kit.ts';
import { MAX_EVENT_STREAMS_PER_USER } from './post-event-routes.ts';

const kit = useScheduleTestApp('cadence-schedules-');
const { sandbox } = kit;
let alice: TestUser;
let bob: TestUser;
let aliceAccount: string;
let bobAccount: string;
let aliceVideos: string[];
let bobVideo: string;

beforeAll(async () => {
  alice = await signUp(kit.t, 'alice@example.com');
  bob = await signUp(kit.t, 'bob@example.com');
  aliceAccount = await connectTikTok(kit.t, alice, 'alice_creates');
  bobAccount = await connectTikTok(kit.t, bob, 'bob_films');
  aliceVideos = [];
  for (const name of ['a1', 'a2', 'a3']) {
    aliceVideos.push((await addVideo(kit.t, alice, kit.dir, name)).mediaId);
  }
  bobVideo = (await addVideo(kit.t, bob, kit.dir, 'b1')).mediaId;
}, 60_000);

/** A body for a day of 2099, so that no test's posts fall due. */
const later = (account: string, media: string[], date: string, time: string) =>
  scheduleBody(account, media, { publishType: 'scheduled', date, time });

async function fields(response: Awaited<ReturnType<typeof api>>) {
  return response.json<{ code: string; fields?: Record<string, string> }>();
}

async function setPostStatus(id: string, status: string, failReason: string | null = null) {
  await sql`update posts set status = ${status}, fail_reason = ${failReason} where id = ${id}`.execute(
    kit.t.context.database.db,
  );
}

describe('POST /api/schedules', () => {
  it('creates one pending post per video, due now for an immediate schedule', async () => {
    const before = Date.now();
    const created = await createSchedule(
      kit.t,
      alice,
      scheduleBody(aliceAccount, aliceVideos.slice(0, 2)),
    );
    expect(created.posts).toHaveLength(2);
    for (const [index, post] of created.posts.entries()) {
      expect(post).toMatchObject({
        scheduleId: created.scheduleId,
        accountId: aliceAccount,
        accountUsername: 'alice_creates',
        status: 'pending',
        randomized: false,
        jitterMinutes: 0,
        failReason: null,
        tiktokPostUrl: null,
      });
      expect(post.mediaId).toBe(aliceVideos[index]);
      expect(post.title).toBe(`Video ${index + 1} #cadence`);
      expect(post.thumbnailUrl).toBe(`/api/media/${post.mediaId}/thumbnail`);
      expect(Date.parse(post.dueAt)).toBeGreaterThanOrEqual(before - 1000);
      expect(Date.parse(post.dueAt)).toBeLessThanOrEqual(Date.now());
    }
    // The account card counts them.
    const accounts = await api(kit.t, alice.cookie, 'GET', '/api/accounts');
    const card = accounts
      .json<{ accounts: { id: string; scheduledCount: number; nextPostAt: string | null }[] }>()
      .accounts.find((account) => account.id === aliceAccount);
    expect(card?.scheduledCount).toBeGreaterThanOrEqual(2);
    expect(card?.nextPostAt).not.toBeNull();
  });

  it('spaces batches as the planner says: 2 per batch, 30 minutes apart, from the start time', async () => {
    const now = new Date();
    const created = await createSchedule(
      kit.t,
      alice,
      scheduleBody(aliceAccount, aliceVideos, {
        publishType: 'spaced',
        timeZone: 'America/New_York',
        spacedInterval: {
          count: 2,
          value: 30,
          unit: 'minutes',
          startTime: '09:00',
          randomizeTime: false,
        },
      }),
    );
    const start = nextOccurrence('09:00', now, 'America/New_York').getTime();
    expect(created.posts.map((post) => Date.parse(post.dueAt))).toEqual([
      start,
      start,
      start + 30 * 60_000,
    ]);
  });

  it('keeps the request on the schedule row (type, zone, date, time, interval)', async () => {
    const created = await createSchedule(
      kit.t,
      alice,
      scheduleBody(aliceAccount, [aliceVideos[0] ?? ''], {
        publishType: 'scheduled',
        date: '2099-06-01',
        time: '08:30',
        timeZone: 'Asia/Tokyo',
      }),
    );
    expect(created.posts[0]?.dueAt).toBe('2099-05-31T23:30:00.000Z');
    const row = await kit.t.context.database.db
      .selectFrom('schedules')
      .selectAll()
      .where('id', '=', created.scheduleId)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      publish_type: 'scheduled',
      time_zone: 'Asia/Tokyo',
      date: '2099-06-01',
      time: '08:30',
    });
  });

  it('answers 400 with translation keys for invalid bodies and past dates', async () => {
    const invalid = await api(kit.t, alice.cookie, 'POST', '/api/schedules', {
      ...scheduleBody(aliceAccount, aliceVideos.slice(0, 1)),
      consent: false,
      privacyLevel: undefined,
    });
    expect(invalid.statusCode).toBe(400);
    expect((await fields(invalid)).fields).toMatchObject({
      consent: 'errors.consentRequired',
      privacyLevel: 'errors.selectPrivacy',
    });
    const past = await api(
      kit.t,
      alice.cookie,
      'POST',
      '/api/schedules',
      scheduleBody(aliceAccount, aliceVideos.slice(0, 1), {
        publishType: 'scheduled',
        date: '2020-01-01',
        time: '10:00',
      }),
    );
    expect(past.statusCode).toBe(400);
    expect((await fields(past)).fields).toEqual({ date: 'errors.dateInPast' });
  });

  // Issue 12: TikTok's guidelines, held by the server too (a client could skip the form's rules).
  it("refuses a schedule without an explicit privacy level and applies TikTok's disclosure rules", async () => {
    const body = scheduleBody(aliceAccount, aliceVideos.slice(0, 1));
    const refused = async (overrides: Record<string, unknown>, path = '/api/schedules') => {
      const response = await api(kit.t, alice.cookie, 'POST', path, { ...body, ...overrides });
      expect(response.statusCode, response.body).toBe(400);
      return (await fields(response)).fields;
    };
    const { privacyLevel: _privacy, ...withoutPrivacy } = body;
    for (const path of ['/api/schedules', '/api/schedules/queue']) {
      const response = await api(kit.t, alice.cookie, 'POST', path, withoutPrivacy);
      expect(response.statusCode).toBe(400);
      expect((await fields(response)).fields).toEqual({ privacyLevel: 'errors.selectPrivacy' });
    }
    await expect(refused({ privacyLevel: '' })).resolves.toEqual({
      privacyLevel: 'errors.selectPrivacy',
    });
    await expect(
      refused({ commercialContent: { enabled: true, yourBrand: false, brandedContent: false } }),
    ).resolves.toEqual({ commercialContent: 'errors.commercialContentChoice' });
    await expect(
      refused({
        privacyLevel: 'SELF_ONLY',
        commercialContent: { enabled: true, yourBrand: true, brandedContent: true },
      }),
    ).resolves.toEqual({ privacyLevel: 'errors.brandedContentPrivate' });
    // The cover frame lies inside the video (1 s long here).
    const cover = (coverTimestampMs: number) => ({
      posts: [{ mediaId: aliceVideos[0] ?? '', title: 'Cover', coverTimestampMs }],
    });
    await expect(refused(cover(-1))).resolves.toEqual({
      'posts.0.coverTimestampMs': 'errors.invalidCoverTime',
    });
    await expect(refused(cover(1.5))).resolves.toEqual({
      'posts.0.coverTimestampMs': 'errors.invalidCoverTime',
    });
    await expect(refused(cover(5_000))).resolves.toEqual({
      'posts.0.coverTimestampMs': 'errors.invalidCoverTime',
    });
    await expect(refused({ isAigc: 'yes' })).resolves.toEqual({ isAigc: 'errors.invalidField' });

    const created = await createSchedule(kit.t, alice, {
      ...body,
      publishType: 'scheduled',
      date: '2099-06-01',
      time: '08:30',
      isAigc: true,
      commercialContent: { enabled: true, yourBrand: false, brandedContent: true },
      ...cover(600),
    });
    const { db } = kit.t.context.database;
    const schedule = await db
      .selectFrom('schedules')
      .select(['is_aigc', 'commercial_content'])
      .where('id', '=', created.scheduleId)
      .executeTakeFirstOrThrow();
    expect(schedule.is_aigc).toBe(true);
    const post = await db
      .selectFrom('posts')
      .select('cover_timestamp_ms')
      .where('id', '=', created.posts[0]?.id ?? '')
      .executeTakeFirstOrThrow();
    expect(post.cover_timestamp_ms).toBe(600);
  });

  it("refuses another user's video (400) and account (409), and an unconnected account", async () => {
    const foreignVideo = await api(
      kit.t,
      alice.cookie,
      'POST',
      '/api/schedules',
      scheduleBody(aliceAccount, [bobVideo]),
    );
    expect(foreignVideo.statusCode).toBe(400);
    expect((await fields(foreignVideo)).fields).toEqual({ mediaIds: 'errors.invalidVideo' });

    const foreignAccount = await api(
      kit.t,
      alice.cookie,
      'POST',
      '/api/schedules',
      scheduleBody(bobAccount, aliceVideos.slice(0, 1)),
    );
    expect(foreignAccount.statusCode).toBe(409);
    expect((await fields(foreignAccount)).fields).toEqual({
      accountId: 'errors.selectTikTokAccount',
    });

    const added = await api(kit.t, alice.cookie, 'POST', '/api/accounts', {
      username: 'never_connected',
    });
    const unconnected = await api(
      kit.t,
      alice.cookie,
      'POST',
      '/api/schedules',
      scheduleBody(added.json<{ id: string }>().id, aliceVideos.slice(0, 1)),
    );
    expect(unconnected.statusCode).toBe(409);
    expect((await fields(unconnected)).fields).toEqual({
      accountId: 'schedules.errors.accountNotConnected',
    });
  });

  it("applies the creator's current rules: privacy options, cannot post now, max duration", async () => {
    const carol = await signUp(kit.t, 'carol@example.com');
    const account = await connectTikTok(kit.t, carol, 'carol_private');
    const video = (await addVideo(kit.t, carol, kit.dir, 'c1', { durationSeconds: 3 })).mediaId;
    const submit = (overrides = {}) =>
      api(kit.t, carol.cookie, 'POST', '/api/schedules', scheduleBody(account, [video], overrides));

    sandbox().control.setUserFlags({ username: 'carol_private' }, { privateAccount: true });
    const privacy = await submit();
    expect(privacy.statusCode).toBe(400);
    expect((await fields(privacy)).fields).toEqual({ privacyLevel: 'errors.selectPrivacy' });
    const allowed = await submit({ privacyLevel: 'FOLLOWER_OF_CREATOR' });
    expect(allowed.statusCode, allowed.body).toBe(201);

    sandbox().control.setUserFlags({ username: 'carol_private' }, { maxVideoPostDurationSec: 2 });
    const tooLong = await submit({ privacyLevel: 'SELF_ONLY' });
    expect(tooLong.statusCode).toBe(400);
    expect((await fields(tooLong)).fields).toEqual({ mediaIds: 'schedules.errors.videoTooLong' });

    sandbox().control.setUserFlags(
      { username: 'carol_private' },
      { maxVideoPostDurationSec: 600, cannotPost: 'spam_risk_too_many_posts' },
    );
    const cannot = await submit({ privacyLevel: 'SELF_ONLY' });
    expect(cannot.statusCode).toBe(409);
    expect((await fields(cannot)).fields).toEqual({ accountId: 'schedules.errors.cannotPostNow' });
    sandbox().control.setUserFlags(
      { username: 'carol_private' },
      { cannotPost: null, privateAccount: false },
    );
  });

  it("refuses a video outside TikTok's limits (a story or meme source) and creates nothing", async () => {
    const dana = await signUp(kit.t, 'dana@example.com');
    const account = await connectTikTok(kit.t, dana, 'dana_sources');
    // What a story source may be: small and 15 fps. TikTok would refuse it at upload time.
    const source = await addVideo(kit.t, dana, kit.dir, 'source', {
      width: 320,
      height: 240,
      fps: 15,
    });
    const refused = await api(
      kit.t,
      dana.cookie,
      'POST',
      '/api/schedules',
      scheduleBody(account, [source.mediaId]),
    );
    expect(refused.statusCode).toBe(400);
    expect((await fields(refused)).fields).toEqual({
      mediaIds: 'schedules.errors.videoNotPostable',
    });
    expect(await listPosts(kit.t, dana)).toEqual([]);
  });

  it('refuses randomize ±1h to a non-Pro user (403) and accepts it for Pro', async () => {
    const body = scheduleBody(aliceAccount, aliceVideos.slice(0, 2), {
      publishType: 'spaced',
      spacedInterval: { count: 1, value: 1, unit: 'days', startTime: '09:00', randomizeTime: true },
    });
    const refused = await api(kit.t, alice.cookie, 'POST', '/api/schedules', body);
    expect(refused.statusCode).toBe(403);
    expect((await fields(refused)).code).toBe('pro_required');

    await kit.t.context.users.setProByEmail(alice.email, true);
    const before = Date.now();
    const created = await createSchedule(kit.t, alice, body);
    for (const post of created.posts) {
      expect(post.randomized).toBe(true);
      expect(Math.abs(post.jitterMinutes)).toBeLessThanOrEqual(60);
      expect(Date.parse(post.dueAt)).toBeGreaterThanOrEqual(before - 60_000);
    }
    await kit.t.context.users.setProByEmail(alice.email, false);
  });
});

describe('POST /api/schedules with an Idempotency-Key', () => {
  // People of their own: each schedule asks TikTok's creator_info, 20 a minute per token.
  let carol: TestUser;
  let dave: TestUser;
  let carolAccount: string;
  let daveAccount: string;
  let carolVideos: string[];
  let daveVideo: string;
  beforeAll(async () => {
    carol = await signUp(kit.t, 'carol.keys@example.com');
    dave = await signUp(kit.t, 'dave.keys@example.com');
    carolAccount = await connectTikTok(kit.t, carol, 'carol_keys');
    daveAccount = await connectTikTok(kit.t, dave, 'dave_keys');
    carolVideos = [];
    for (const name of ['c1', 'c2', 'c3']) {
      carolVideos.push((await addVideo(kit.t, carol, kit.dir, name)).mediaId);
    }
    daveVideo = (await addVideo(kit.t, dave, kit.dir, 'd1')).mediaId;
  }, 60_000);
  const send = (user: TestUser, key: string | undefined, body: object) =>
    kit.t.app.inject({
      method: 'POST',
      url: '/api/schedules',
      headers: {
        cookie: user.cookie,
        origin: kit.t.url,
        ...(key !== undefined && { 'idempotency-key': key }),
      },
      payload: body,
    });
  const schedulesWithKey = async (key: string) =>
    Number(
      (
        await sql<{ count: string }>`select count(*) as count from schedules
          where request_key = ${key}`.execute(kit.t.context.database.db)
      ).rows[0]?.count,
    );
  let counter = 0;
  const newKey = () => `test-key-${String(++counter).padStart(8, '0')}-${Date.now()}`;

  it('makes one schedule of a request sent five times at once, and answers each with it', async () => {
    const key = newKey();
    const body = later(carolAccount, carolVideos.slice(0, 2), '2099-05-05', '10:00');
    const answers = await Promise.all(Array.from({ length: 5 }, () => send(carol, key, body)));
    expect(answers.map((answer) => answer.statusCode)).toEqual([201, 201, 201, 201, 201]);
    const made = answers.map((answer) => answer.json<{ scheduleId: string; posts: Post[] }>());
    expect(new Set(made.map((answer) => answer.scheduleId)).size).toBe(1);
    for (const answer of made) expect(answer.posts).toHaveLength(2);
    // One request made it; the others say they are its answer again.
    expect(
      answers.filter((answer) => answer.headers['idempotent-replayed'] === 'true'),
    ).toHaveLength(4);
    expect(await schedulesWithKey(key)).toBe(1);
    // Before: five schedules, ten posts.
    const posts = await listPosts(kit.t, carol);
    expect(posts.filter((post) => post.scheduleId === made[0]?.scheduleId)).toHaveLength(2);
  });

  it('answers a retry with the schedule already made, even once it could not be made again', async () => {
    const draft = await api(kit.t, carol.cookie, 'POST', '/api/drafts', {
      mediaIds: [carolVideos[2]],
    });
    expect(draft.statusCode, draft.body).toBe(201);
    const draftId = draft.json<{ id: string }>().id;
    const key = newKey();
    const body = scheduleBody(carolAccount, [carolVideos[2] ?? ''], {
      publishType: 'scheduled',
      date: '2099-06-06',
      time: '11:00',
      draftId,
    });
    const first = await send(carol, key, body);
    expect(first.statusCode, first.body).toBe(201);
    // The draft went with the first request: sent again without the key, it is refused.
    const withoutKey = await send(carol, undefined, body);
    expect(withoutKey.statusCode).toBe(404);
    const retry = await send(carol, key, body);
    expect(retry.statusCode, retry.body).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json<{ scheduleId: string }>().scheduleId).toBe(
      first.json<{ scheduleId: string }>().scheduleId,
    );
    expect(await schedulesWithKey(key)).toBe(1);
  });

  it('refuses the same key with another request (409) or a malformed key (400), and makes nothing', async () => {
    const key = newKey();
    const body = scheduleBody(carolAccount, [carolVideos[0] ?? ''], {
      publishType: 'scheduled',
      date: '2099-07-07',
      time: '12:00',
    });
    expect((await send(carol, key, body)).statusCode).toBe(201);
    const before = (await listPosts(kit.t, carol)).length;
    const other = await send(carol, key, { ...body, time: '13:00' });
    expect(other.statusCode).toBe(409);
    expect(other.json()).toMatchObject({ code: 'conflict' });
    for (const malformed of [
      'short',
      'x'.repeat(129),
      'spaces are not allowed here',
      'é'.repeat(20),
    ]) {
      const refused = await send(carol, malformed, body);
      expect(refused.statusCode, malformed).toBe(400);
      expect(refused.json()).toMatchObject({ code: 'validation_failed' });
    }
    expect((await listPosts(kit.t, carol)).length).toBe(before);
  });

  it("keeps each person's keys apart: another person's request with the same key is their own", async () => {
    const key = newKey();
    const mine = await send(
      carol,
      key,
      scheduleBody(carolAccount, [carolVideos[1] ?? ''], {
        publishType: 'scheduled',
        date: '2099-08-08',
        time: '09:00',
      }),
    );
    const theirs = await send(dave, key, later(daveAccount, [daveVideo], '2099-08-08', '09:00'));
    expect([mine.statusCode, theirs.statusCode]).toEqual([201, 201]);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(theirs.json<{ posts: Post[] }>().posts[0]?.accountId).toBe(daveAccount);
  });
});

describe('posts: list and actions', () => {
  async function futurePost(user: TestUser, account: string, video: string): Promise<Post> {
    const created = await createSchedule(
      kit.t,
      user,
      later(account, [video], '2099-01-01', '12:00'),
    );
    const post = created.posts[0];
    if (!post) throw new Error('no post');
    return post;
  }

  it("lists only the user's posts", async () => {
    const older = await futurePost(alice, aliceAccount, aliceVideos[0] ?? '');
    const newer = await futurePost(alice, aliceAccount, aliceVideos[1] ?? '');
    const posts = await listPosts(kit.t, alice);
    expect(posts.every((post) => post.accountId === aliceAccount)).toBe(true);
    const ids = posts.map((post) => post.id);
    expect(ids).toEqual(expect.arrayContaining([older.id, newer.id]));
    // The old unbounded list (every post of the user in one answer) is gone: pages only.
    expect((await api(kit.t, alice.cookie, 'GET', '/api/posts')).statusCode).toBe(404);
    const bobPost = await futurePost(bob, bobAccount, bobVideo);
    expect((await listPosts(kit.t, alice)).some((post) => post.id === bobPost.id)).toBe(false);
  });

  it('cancels only pending posts', async () => {
    const post = await futurePost(alice, aliceAccount, aliceVideos[0] ?? '');
    const cancelled = await api(kit.t, alice.cookie, 'POST', `/api/posts/${post.id}/cancel`);
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json<Post>().status).toBe('cancelled');
    const again = await api(kit.t, alice.cookie, 'POST', `/api/posts/${post.id}/cancel`);
    expect(again.statusCode).toBe(409);
    expect((await fields(again)).fields).toEqual({ status: 'schedules.errors.notPending' });
  });

  it('reschedules pending posts into the future only', async () => {
    const post = await futurePost(alice, aliceAccount, aliceVideos[0] ?? '');
    const past = await api(kit.t, alice.cookie, 'POST', `/api/posts/${post.id}/reschedule`, {
      dueAt: '2020-01-01T00:00:00Z',
    });
    expect(past.statusCode).toBe(400);
    expect((await fields(past)).fields).toEqual({ dueAt: 'errors.dateInPast' });
    const garbage = await api(kit.t, alice.cookie, 'POST', `/api/posts/${post.id}/reschedule`, {
      dueAt: 'tomorrow',
    });
    expect(garbage.statusCode).toBe(400);
    const moved = await api(kit.t, alice.cookie, 'POST', `/api/posts/${post.id}/reschedule`, {
      dueAt: '2098-03-04T05:06:00+02:00',
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json<Post>().dueAt).toBe('2098-03-04T03:06:00.000Z');
    await setPostStatus(post.id, 'completed');
    const done = await api(kit.t, alice.cookie, 'POST', `/api/posts/${post.id}/reschedule`, {
      dueAt: '2098-03-04T05:06:00Z',
    });
    expect(done.statusCode).toBe(409);
  });

  it('retries only failed posts: back to pending, due now, reason cleared', async () => {
    const post = await futurePost(alice, aliceAccount, aliceVideos[0] ?? '');
    const notFailed = await api(kit.t, alice.cookie, 'POST', `/api/posts/${post.id}/retry`);
    expect(notFailed.statusCode).toBe(409);
    expect((await fields(notFailed)).fields).toEqual({ status: 'schedules.errors.notFailed' });
    await setPostStatus(post.id, 'failed', 'spam_risk_too_many_posts');
    expect((await listPosts(kit.t, alice)).find((p) => p.id === post.id)?.failReason).toBe(
      'spam_risk_too_many_posts',
    );
    const before = Date.now();
    const retried = await api(kit.t, alice.cookie, 'POST', `/api/posts/${post.id}/retry`);
    expect(retried.statusCode).toBe(200);
    expect(retried.json<Post>()).toMatchObject({ status: 'pending', failReason: null });
    expect(Date.parse(retried.json<Post>().dueAt)).toBeGreaterThanOrEqual(before - 1000);
  });

  // A post whose file is gone, or that TikTok refused for the file itself, fails the same way
  // however often it is sent again: the creator is told to change the video, not to retry.
  it.each(publishFailReasons.filter((reason) => failRemedy(reason) === 'schedule_again'))(
    'neither retries nor reschedules a post that failed with %s',
    async (reason) => {
      const post = await futurePost(alice, aliceAccount, aliceVideos[0] ?? '');
      await setPostStatus(post.id, 'failed', reason);
      const retried = await api(kit.t, alice.cookie, 'POST', `/api/posts/${post.id}/retry`);
      expect(retried.statusCode).toBe(409);
      expect((await fields(retried)).fields).toEqual({
        status: 'schedules.errors.cannotSucceedAsIs',
      });
      const moved = await api(kit.t, alice.cookie, 'POST', `/api/posts/${post.id}/reschedule`, {
        dueAt: '2098-03-04T05:06:00Z',
      });
      expect(moved.statusCode).toBe(409);
      expect((await listPosts(kit.t, alice)).find((p) => p.id === post.id)).toMatchObject({
        status: 'failed',
        failReason: reason,
      });
    },
  );

  it("answers 404 for another user's post and for ids that are not post ids", async () => {
    const post = await futurePost(bob, bobAccount, bobVideo);
    for (const action of ['cancel', 'retry']) {
      const response = await api(kit.t, alice.cookie, 'POST', `/api/posts/${post.id}/${action}`);
      expect(response.statusCode).toBe(404);
    }
    const reschedule = await api(kit.t, alice.cookie, 'POST', `/api/posts/${post.id}/reschedule`, {
      dueAt: '2098-01-01T00:00:00Z',
    });
    expect(reschedule.statusCode).toBe(404);
    expect(
      (await api(kit.t, alice.cookie, 'POST', '/api/posts/not-a-uuid/cancel')).statusCode,
    ).toBe(404);
    // Bob's post is untouched.
    expect((await listPosts(kit.t, bob)).find((p) => p.id === post.id)?.status).toBe('pending');
  });

  it('requires a session', async () => {
    const response = await kit.t.app.inject({ method: 'GET', url: '/api/posts/queue' });
    expect(response.statusCode).toBe(401);
  });
});

describe('GET /api/posts/events', () => {
  it('streams a status change of one of my posts, and nothing of others', async () => {
    const aborter = new AbortController();
    const response = await fetch(`${kit.t.url}/api/posts/events`, {
      headers: { cookie: alice.cookie },
      signal: aborter.signal,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const reader = response.body?.pipeThrough(new TextDecoderStream()).getReader();
    if (!reader) throw new Error('no body');

    const mine = await createSchedule(
      kit.t,
      alice,
      scheduleBody(aliceAccount, [aliceVideos[2] ?? ''], {
        publishType: 'scheduled',
        date: '2099-02-02',
        time: '10:00',
      }),
    );
    const bobs = await createSchedule(
      kit.t,
      bob,
      later(bobAccount, [bobVideo], '2099-02-02', '10:00'),
    );
    const postId = mine.posts[0]?.id ?? '';
    await api(kit.t, alice.cookie, 'POST', `/api/posts/${postId}/cancel`);

    let text = '';
    const parse = () =>
      text
        .split('\n\n')
        .slice(0, -1) // the last piece may be an event still arriving
        .filter((block) => block.startsWith('event: post\ndata: '))
        .map((block) => JSON.parse(block.slice('event: post\ndata: '.length)) as Post);
    const deadline = Date.now() + 10_000;
    while (
      !parse().some((post) => post.id === postId && post.status === 'cancelled') &&
      Date.now() < deadline
    ) {
      const { value, done } = await reader.read();
      if (done) break;
      text += value;
    }
    aborter.abort();
    const events = parse();
    expect(events.some((post) => post.id === postId && post.status === 'cancelled')).toBe(true);
    expect(events.some((post) => post.id === bobs.posts[0]?.id)).toBe(false);
  });

  it('answers HEAD with the stream’s headers at once, and holds no stream for it', async () => {
    // Before, a HEAD was streamed like a GET: no status line until the 90 s idle timeout, and one
    // of the user's stream slots taken meanwhile.
    const heads = await Promise.all(
      Array.from({ length: MAX_EVENT_STREAMS_PER_USER + 1 }, () =>
        fetch(`${kit.t.url}/api/posts/events`, {
          method: 'HEAD',
          headers: { cookie: alice.cookie },
          signal: AbortSignal.timeout(10_000),
        }),
      ),
    );
    expect(heads.map((response) => response.status)).toEqual(heads.map(() => 200));
    expect(heads[0]?.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const signedOut = await fetch(`${kit.t.url}/api/posts/events`, {
      method: 'HEAD',
      signal: AbortSignal.timeout(10_000),
    });
    expect(signedOut.status).toBe(401);
    // Every slot is still free: a tab gets its stream.
    const aborter = new AbortController();
    const stream = await fetch(`${kit.t.url}/api/posts/events`, {
      headers: { cookie: alice.cookie },
      signal: aborter.signal,
    });
    expect(stream.status).toBe(200);
    aborter.abort();
  });

  it('refuses more open streams than tabs need with a translated 429, and takes one again once a tab closes', async () => {
    const open = (cookie: string, signal: AbortSignal) =>
      fetch(`${kit.t.url}/api/posts/events`, { headers: { cookie }, signal });
    const aborters = Array.from(
      { length: MAX_EVENT_STREAMS_PER_USER },
      () => new AbortController(),
    );
    try {
      const streams = await Promise.all(
        aborters.map((aborter) => open(alice.cookie, aborter.signal)),
      );
      expect(streams.map((response) => response.status)).toEqual(streams.map(() => 200));

      const extra = new AbortController();
      const refused = await open(alice.cookie, extra.signal);
      expect(refused.status).toBe(429);
      expect(await refused.json()).toMatchObject({ code: 'rate_limited' });
      // Another person's tabs are theirs: Bob still gets his stream.
      const bobs = await open(bob.cookie, extra.signal);
      expect(bobs.status).toBe(200);
      extra.abort();

      aborters[0]?.abort();
      const again = new AbortController();
      aborters.push(again);
      // The server hears of the closed tab when its socket closes: asked until then.
      const reopened = await vi.waitFor(
        async () => {
          const response = await open(alice.cookie, again.signal);
          if (response.status !== 200) {
            await response.body?.cancel();
            throw new Error(`still refused: ${response.status}`);
          }
          return response;
        },
        { timeout: 10_000, interval: 100 },
      );
      expect(reopened.status).toBe(200);
    } finally {
      for (const aborter of aborters) aborter.abort();
    }
  });

  it('answers 401 without a session', async () => {
    const response = await fetch(`${kit.t.url}/api/posts/events`);
    expect(response.status).toBe(401);
  });
});
