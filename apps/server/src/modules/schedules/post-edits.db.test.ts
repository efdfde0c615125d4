import type { Post } from '@cadence/shared/schemas/schedule';
import { newLease } from '../../db/lease.ts';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { createPublishingRepository } from '../publishing/repository.ts';
import {
  api,
  createSchedule,
  fieldsOf,
  scheduleBody,
  twoCreators,
  useScheduleTestApp,
  type TestUser,
} from './test-kit.ts';

const kit = useScheduleTestApp('cadence-post-edits-');
const { sandbox } = kit;
let alice: TestUser;
let bob: TestUser;
let aliceAccount: string;
let bobAccount: string;
let videos: string[];
let bobVideo: string;

beforeAll(async () => {
  ({ alice, bob, aliceAccount, bobAccount, videos, bobVideo } = await twoCreators(kit, 'edits', 2));
}, 60_000);

async function later(
  user: TestUser,
  account: string,
  mediaIds: string[],
  overrides = {},
): Promise<Post[]> {
  const created = await createSchedule(
    kit.t,
    user,
    scheduleBody(account, mediaIds, {
      publishType: 'scheduled',
      date: '2099-06-01',
      time: '12:00',
      ...overrides,
    }),
  );
  return created.posts;
}

async function setStatus(id: string, status: string) {
  await sql`update posts set status = ${status} where id = ${id}`.execute(
    kit.t.context.database.db,
  );
}

const edit = (user: TestUser, id: string, body: object) =>
  api(kit.t, user.cookie, 'PATCH', `/api/posts/${id}`, body);

describe('PATCH /api/posts/:id', () => {
  it('changes caption, privacy, interactions and time of one pending post only', async () => {
    const [first, second] = await later(alice, aliceAccount, videos);
    if (!first || !second) throw new Error('two posts expected');
    const response = await edit(alice, first.id, {
      title: 'New caption #edit',
      privacyLevel: 'SELF_ONLY',
      allowDuet: true,
      dueAt: '2099-07-01T18:30:00+02:00',
    });
    expect(response.statusCode, response.body).toBe(200);
    const edited = response.json<Post>();
    expect(edited).toMatchObject({
      id: first.id,
      status: 'pending',
      title: 'New caption #edit',
      privacyLevel: 'SELF_ONLY',
      allowComment: true,
      allowDuet: true,
      dueAt: '2099-07-01T16:30:00.000Z',
      timeZone: 'Europe/Paris',
    });
    // Its sibling keeps the schedule's settings: the edited post got a schedule of its own.
    expect(edited.scheduleId).not.toBe(first.scheduleId);
    const sibling = (await api(kit.t, alice.cookie, 'GET', `/api/posts/${second.id}`)).json<Post>();
    expect(sibling).toMatchObject({
      scheduleId: first.scheduleId,
      privacyLevel: 'PUBLIC_TO_EVERYONE',
      allowDuet: false,
      title: second.title,
      dueAt: second.dueAt,
    });
    // A post alone in its schedule keeps it.
    const again = (await edit(alice, first.id, { allowComment: false })).json<Post>();
    expect(again).toMatchObject({ scheduleId: edited.scheduleId, allowComment: false });
  });

  it('applies TikTok’s rules: privacy options, disabled interactions, branded content', async () => {
    const [post] = await later(alice, aliceAccount, [videos[0] ?? '']);
    if (!post) throw new Error('no post');
    sandbox().control.setUserFlags(
      { username: 'alice_edits' },
      { privateAccount: true, duetDisabled: true },
    );
    try {
      const notOffered = await edit(alice, post.id, { privacyLevel: 'PUBLIC_TO_EVERYONE' });
      expect(notOffered.statusCode).toBe(400);
      expect(fieldsOf(notOffered)).toEqual({ privacyLevel: 'errors.selectPrivacy' });
      const duet = await edit(alice, post.id, { allowDuet: true, privacyLevel: 'SELF_ONLY' });
      expect(duet.json<Post>()).toMatchObject({ allowDuet: false, privacyLevel: 'SELF_ONLY' });
    } finally {
      sandbox().control.setUserFlags(
        { username: 'alice_edits' },
        { privateAccount: false, duetDisabled: false },
      );
    }
    const [branded] = await later(alice, aliceAccount, [videos[1] ?? ''], {
      commercialContent: { enabled: true, yourBrand: false, brandedContent: true },
    });
    const refused = await edit(alice, branded?.id ?? '', { privacyLevel: 'SELF_ONLY' });
    expect(refused.statusCode).toBe(400);
    expect(fieldsOf(refused)).toEqual({ privacyLevel: 'errors.brandedContentPrivate' });
  });

  it('refuses an empty edit, unknown fields and a time in the past', async () => {
    const [post] = await later(alice, aliceAccount, [videos[0] ?? '']);
    const id = post?.id ?? '';
    const empty = await edit(alice, id, {});
    expect(empty.statusCode).toBe(400);
    expect(fieldsOf(empty)).toEqual({ _: 'errors.nothingToChange' });
    expect((await edit(alice, id, { status: 'completed' })).statusCode).toBe(400);
    const past = await edit(alice, id, { dueAt: '2020-01-01T00:00:00Z' });
    expect(past.statusCode).toBe(400);
    expect(fieldsOf(past)).toEqual({ dueAt: 'errors.dateInPast' });
    const long = await edit(alice, id, { title: 'x'.repeat(2201) });
    expect(fieldsOf(long)).toEqual({ title: 'errors.titleTooLong' });
  });

  it('is locked once the post is publishing, published, failed or cancelled, and says why', async () => {
    const [post] = await later(alice, aliceAccount, [videos[0] ?? '']);
    const id = post?.id ?? '';
    const expected: [string, string][] = [
      ['publishing', 'schedules.errors.lockedPublishing'],
      ['completed', 'schedules.errors.lockedPublished'],
      ['failed', 'schedules.errors.lockedClosed'],
      ['cancelled', 'schedules.errors.lockedClosed'],
    ];
    for (const [status, key] of expected) {
      await setStatus(id, status);
      const response = await edit(alice, id, { title: 'too late' });
      expect(response.statusCode, status).toBe(409);
      expect(fieldsOf(response), status).toEqual({ status: key });
    }
    const row = await kit.t.context.database.db
      .selectFrom('posts')
      .select('title')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.title).toBe(post?.title);
  });

  it('never changes a post the publisher claimed at the same moment', async () => {
    const publishing = createPublishingRepository(kit.t.context.database.db);
    const posts = await createSchedule(
      kit.t,
      alice,
      scheduleBody(aliceAccount, videos, { publishType: 'immediate' }),
    );
    for (const post of posts.posts) {
      const [claimed, edited] = await Promise.all([
        publishing.claim(post.id, newLease(10_000)),
        edit(alice, post.id, { title: 'edited while due', dueAt: '2099-08-01T10:00:00Z' }),
      ]);
      const row = await kit.t.context.database.db
        .selectFrom('posts')
        .select(['status', 'title', 'due_at'])
        .where('id', '=', post.id)
        .executeTakeFirstOrThrow();
      if (claimed) {
        // The publisher won: the edit was refused and changed nothing.
        expect(edited.statusCode).toBe(409);
        expect(fieldsOf(edited)).toEqual({ status: 'schedules.errors.lockedPublishing' });
        expect(row).toMatchObject({ status: 'publishing', title: post.title });
      } else {
        // The edit won: the post moved to later, so the publisher had nothing to take.
        expect(edited.statusCode).toBe(200);
        expect(row.status).toBe('pending');
        expect(row.title).toBe('edited while due');
        expect(row.due_at.toISOString()).toBe('2099-08-01T10:00:00.000Z');
      }
    }
  });
});

describe('cancel, restore and reschedule', () => {
  const action = (user: TestUser, id: string, name: string, body?: object) =>
    api(kit.t, user.cookie, 'POST', `/api/posts/${id}/${name}`, body);

  it('restores a cancelled post whose time is still ahead, at that time', async () => {
    const [post] = await later(alice, aliceAccount, [videos[0] ?? '']);
    const id = post?.id ?? '';
    expect((await action(alice, id, 'restore')).statusCode).toBe(409);
    expect((await action(alice, id, 'cancel')).json<Post>().status).toBe('cancelled');
    const restored = await action(alice, id, 'restore');
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json<Post>()).toMatchObject({ status: 'pending', dueAt: post?.dueAt });
  });

  it('refuses to restore a cancelled post whose time has passed: it can be rescheduled', async () => {
    const [post] = await later(alice, aliceAccount, [videos[0] ?? '']);
    const id = post?.id ?? '';
    await action(alice, id, 'cancel');
    await sql`update posts set due_at = now() - interval '1 hour' where id = ${id}`.execute(
      kit.t.context.database.db,
    );
    const refused = await action(alice, id, 'restore');
    expect(refused.statusCode).toBe(409);
    expect(fieldsOf(refused)).toEqual({ status: 'schedules.errors.restoreTimePassed' });
    const moved = await action(alice, id, 'reschedule', { dueAt: '2099-09-09T09:09:00Z' });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json<Post>()).toMatchObject({
      status: 'pending',
      dueAt: '2099-09-09T09:09:00.000Z',
    });
  });

  it('reschedules a failed post as a new attempt, but never a published or publishing one', async () => {
    const [post] = await later(alice, aliceAccount, [videos[1] ?? '']);
    const id = post?.id ?? '';
    await sql`update posts set status = 'failed', fail_reason = 'publish_failed', attempt = 3,
      publish_id = 'v_pub_x', init_started_at = now() where id = ${id}`.execute(
      kit.t.context.database.db,
    );
    const moved = await action(alice, id, 'reschedule', { dueAt: '2099-10-10T10:00:00Z' });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json<Post>()).toMatchObject({ status: 'pending', failReason: null });
    const row = await kit.t.context.database.db
      .selectFrom('posts')
      .select(['attempt', 'publish_id', 'init_started_at', 'wake_at'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ attempt: 0, publish_id: null, init_started_at: null });
    expect(row.wake_at.toISOString()).toBe('2099-10-10T10:00:00.000Z');
    for (const status of ['publishing', 'completed']) {
      await setStatus(id, status);
      const refused = await action(alice, id, 'reschedule', { dueAt: '2099-10-11T10:00:00Z' });
      expect(refused.statusCode, status).toBe(409);
      expect(fieldsOf(refused)).toEqual({ status: 'schedules.errors.notReschedulable' });
    }
  });

  it("answers 404 to every change of another user's post and leaves it as it was", async () => {
    const [post] = await later(bob, bobAccount, [bobVideo]);
    const id = post?.id ?? '';
    expect((await edit(alice, id, { title: 'mine now' })).statusCode).toBe(404);
    // The calendar's drag and drop: a PATCH of the time alone.
    expect((await edit(alice, id, { dueAt: '2099-02-01T10:00:00Z' })).statusCode).toBe(404);
    expect((await action(alice, id, 'cancel')).statusCode).toBe(404);
    await action(bob, id, 'cancel');
    expect((await action(alice, id, 'restore')).statusCode).toBe(404);
    expect(
      (await action(alice, id, 'reschedule', { dueAt: '2099-01-01T00:00:00Z' })).statusCode,
    ).toBe(404);
    expect((await edit(alice, 'not-a-uuid', { title: 'x' })).statusCode).toBe(404);
    const unchanged = (await api(kit.t, bob.cookie, 'GET', `/api/posts/${id}`)).json<Post>();
    expect(unchanged).toMatchObject({
      status: 'cancelled',
      title: post?.title,
      dueAt: post?.dueAt,
    });
  });
});
