import type { Draft } from '@cadence/shared/schemas/planning';
import type { Post } from '@cadence/shared/schemas/schedule';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  connectTikTok,
  fieldsOf,
  listPosts,
  twoCreators,
  useScheduleTestApp,
  type TestUser,
} from '../schedules/test-kit.ts';

const kit = useScheduleTestApp('cadence-drafts-');
let alice: TestUser;
let bob: TestUser;
let aliceAccount: string;
let bobAccount: string;
let videos: string[];
let bobVideo: string;

beforeAll(async () => {
  ({ alice, bob, aliceAccount, bobAccount, videos, bobVideo } = await twoCreators(
    kit,
    'drafts',
    3,
  ));
}, 60_000);

async function saveDraft(user: TestUser, body: object): Promise<Draft> {
  const response = await api(kit.t, user.cookie, 'POST', '/api/drafts', body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Draft>();
}

const timing = {
  publishType: 'scheduled',
  date: '2099-04-04',
  time: '18:00',
  timeZone: 'Europe/Paris',
  consent: true,
};

describe('drafts', () => {
  it('keeps videos, captions and settings without a time, and lists the latest first', async () => {
    const first = await saveDraft(alice, {
      mediaIds: [videos[0], videos[1]],
      posts: [{ mediaId: videos[1], title: 'second one' }],
      allowComment: true,
    });
    expect(first).toMatchObject({
      accountId: null,
      privacyLevel: null,
      allowComment: true,
      allowDuet: false,
      commercialContent: { enabled: false, yourBrand: false, brandedContent: false },
    });
    expect(first.videos).toEqual([
      {
        mediaId: videos[0],
        title: '',
        thumbnailUrl: `/api/media/${videos[0]}/thumbnail`,
        coverTimestampMs: null,
      },
      {
        mediaId: videos[1],
        title: 'second one',
        thumbnailUrl: `/api/media/${videos[1]}/thumbnail`,
        coverTimestampMs: null,
      },
    ]);
    const second = await saveDraft(alice, { mediaIds: [videos[2]] });

    const updated = await api(kit.t, alice.cookie, 'PUT', `/api/drafts/${first.id}`, {
      accountId: aliceAccount,
      mediaIds: [videos[1], videos[0]],
      posts: [
        { mediaId: videos[0], title: 'first #draft' },
        { mediaId: videos[1], title: 'second #draft' },
      ],
      privacyLevel: 'SELF_ONLY',
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json<Draft>()).toMatchObject({
      accountId: aliceAccount,
      privacyLevel: 'SELF_ONLY',
      allowComment: false,
      videos: [
        { mediaId: videos[1], title: 'second #draft' },
        { mediaId: videos[0], title: 'first #draft' },
      ],
    });
    const list = await api(kit.t, alice.cookie, 'GET', '/api/drafts');
    expect(list.json<{ drafts: Draft[] }>().drafts.map((draft) => draft.id)).toEqual([
      first.id,
      second.id,
    ]);
    // A video a draft keeps cannot be deleted from under it.
    const remove = await api(kit.t, alice.cookie, 'DELETE', `/api/media/${videos[2]}`);
    expect(remove.statusCode).toBe(409);
    expect((await api(kit.t, alice.cookie, 'DELETE', `/api/drafts/${second.id}`)).statusCode).toBe(
      204,
    );
    expect((await api(kit.t, alice.cookie, 'GET', `/api/drafts/${second.id}`)).statusCode).toBe(
      404,
    );
  });

  it("refuses another user's videos and account, duplicates and stray captions", async () => {
    const cases: [object, Record<string, string>][] = [
      [{ mediaIds: [bobVideo] }, { mediaIds: 'errors.invalidVideo' }],
      [
        { mediaIds: [videos[0]], accountId: bobAccount },
        { accountId: 'errors.selectTikTokAccount' },
      ],
      [{ mediaIds: [videos[0], videos[0]] }, { 'mediaIds.1': 'errors.duplicateVideo' }],
      [
        { mediaIds: [videos[0]], posts: [{ mediaId: videos[1], title: 'x' }] },
        { posts: 'errors.postsMismatch' },
      ],
      [
        { mediaIds: [videos[0]], privacyLevel: 'EVERYONE' },
        { privacyLevel: 'errors.selectPrivacy' },
      ],
    ];
    for (const [body, fields] of cases) {
      const response = await api(kit.t, alice.cookie, 'POST', '/api/drafts', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(fieldsOf(response), JSON.stringify(body)).toEqual(fields);
    }
  });

  it('becomes a schedule when given a time, once, and is gone afterwards', async () => {
    const incomplete = await saveDraft(alice, { mediaIds: [videos[0]] });
    const refused = await api(
      kit.t,
      alice.cookie,
      'POST',
      `/api/drafts/${incomplete.id}/schedule`,
      timing,
    );
    expect(refused.statusCode).toBe(400);
    expect(fieldsOf(refused)).toEqual({
      accountId: 'errors.selectTikTokAccount',
      privacyLevel: 'errors.selectPrivacy',
    });
    expect((await api(kit.t, alice.cookie, 'GET', `/api/drafts/${incomplete.id}`)).statusCode).toBe(
      200,
    );

    const draft = await saveDraft(alice, {
      accountId: aliceAccount,
      mediaIds: [videos[0], videos[1]],
      posts: [
        { mediaId: videos[0], title: 'from a draft 1' },
        { mediaId: videos[1], title: 'from a draft 2' },
      ],
      privacyLevel: 'MUTUAL_FOLLOW_FRIENDS',
      allowStitch: true,
    });
    const noTime = await api(kit.t, alice.cookie, 'POST', `/api/drafts/${draft.id}/schedule`, {
      ...timing,
      date: undefined,
    });
    expect(fieldsOf(noTime)).toEqual({ date: 'errors.dateRequired' });
    // Two clicks at once: one schedule, the other told the draft is gone.
    const [a, b] = await Promise.all([
      api(kit.t, alice.cookie, 'POST', `/api/drafts/${draft.id}/schedule`, timing),
      api(kit.t, alice.cookie, 'POST', `/api/drafts/${draft.id}/schedule`, timing),
    ]);
    expect([a.statusCode, b.statusCode].sort(), `${a.body} ${b.body}`).toEqual([201, 404]);
    const created = (a.statusCode === 201 ? a : b).json<{ scheduleId: string; posts: Post[] }>();
    expect(created.posts.map((post) => [post.title, post.dueAt, post.privacyLevel])).toEqual([
      ['from a draft 1', '2099-04-04T16:00:00.000Z', 'MUTUAL_FOLLOW_FRIENDS'],
      ['from a draft 2', '2099-04-04T16:00:00.000Z', 'MUTUAL_FOLLOW_FRIENDS'],
    ]);
    expect(created.posts.every((post) => post.allowStitch && post.status === 'pending')).toBe(true);
    const titled = (await listPosts(kit.t, alice)).filter((post) =>
      post.title.startsWith('from a draft'),
    );
    expect(titled).toHaveLength(2);
    expect((await api(kit.t, alice.cookie, 'GET', `/api/drafts/${draft.id}`)).statusCode).toBe(404);
  });

  // Issue 12: drafts lost the AI-generated label and the cover frames (and the inbox choice).
  it('keeps the AI label, each cover frame and the inbox choice, and schedules with them', async () => {
    const draft = await saveDraft(alice, {
      accountId: aliceAccount,
      mediaIds: [videos[0], videos[1]],
      posts: [
        { mediaId: videos[0], title: 'aigc draft', coverTimestampMs: 400 },
        { mediaId: videos[1], title: 'no cover' },
      ],
      isAigc: true,
      delivery: 'inbox',
    });
    expect(draft).toMatchObject({ isAigc: true, delivery: 'inbox', privacyLevel: null });
    expect(draft.videos.map((video) => video.coverTimestampMs)).toEqual([400, null]);
    const reread = await api(kit.t, alice.cookie, 'GET', `/api/drafts/${draft.id}`);
    expect(reread.json<Draft>()).toEqual(draft);
    const invalid = await api(kit.t, alice.cookie, 'PUT', `/api/drafts/${draft.id}`, {
      mediaIds: [videos[0]],
      posts: [{ mediaId: videos[0], title: '', coverTimestampMs: -1 }],
      isAigc: 'yes',
    });
    expect(invalid.statusCode).toBe(400);
    expect(fieldsOf(invalid)).toMatchObject({
      'posts.0.coverTimestampMs': 'errors.invalidCoverTime',
      isAigc: 'errors.invalidField',
    });

    // An inbox draft needs no privacy level: the creator sets it in the TikTok app.
    const scheduled = await api(
      kit.t,
      alice.cookie,
      'POST',
      `/api/drafts/${draft.id}/schedule`,
      timing,
    );
    expect(scheduled.statusCode, scheduled.body).toBe(201);
    const { posts } = scheduled.json<{ posts: Post[] }>();
    expect(posts.map((post) => [post.delivery, post.privacyLevel])).toEqual([
      ['inbox', null],
      ['inbox', null],
    ]);
    const stored = await kit.t.context.database.db
      .selectFrom('posts')
      .innerJoin('schedules', 'schedules.id', 'posts.schedule_id')
      .select(['posts.title', 'posts.cover_timestamp_ms', 'schedules.is_aigc'])
      .where(
        'posts.id',
        'in',
        posts.map((post) => post.id),
      )
      .orderBy('posts.title')
      .execute();
    expect(stored).toEqual([
      { title: 'aigc draft', cover_timestamp_ms: 400, is_aigc: true },
      { title: 'no cover', cover_timestamp_ms: null, is_aigc: true },
    ]);
    for (const post of posts)
      await api(kit.t, alice.cookie, 'POST', `/api/posts/${post.id}/cancel`);
  });

  it("answers 404 for another user's draft and leaves it as it was", async () => {
    const bobs = await saveDraft(bob, { mediaIds: [bobVideo], accountId: bobAccount });
    const attempts = [
      api(kit.t, alice.cookie, 'GET', `/api/drafts/${bobs.id}`),
      api(kit.t, alice.cookie, 'PUT', `/api/drafts/${bobs.id}`, { mediaIds: [] }),
      api(kit.t, alice.cookie, 'DELETE', `/api/drafts/${bobs.id}`),
      api(kit.t, alice.cookie, 'POST', `/api/drafts/${bobs.id}/schedule`, timing),
      api(kit.t, alice.cookie, 'GET', '/api/drafts/not-a-uuid'),
    ];
    for (const response of await Promise.all(attempts)) expect(response.statusCode).toBe(404);
    const list = (await api(kit.t, alice.cookie, 'GET', '/api/drafts')).json<{ drafts: Draft[] }>();
    expect(list.drafts.some((draft) => draft.id === bobs.id)).toBe(false);
    const still = (await api(kit.t, bob.cookie, 'GET', `/api/drafts/${bobs.id}`)).json<Draft>();
    expect(still.videos.map((video) => video.mediaId)).toEqual([bobVideo]);
  });

  it('outlives its account: deleting the account leaves the draft without one', async () => {
    const carolAccount = await connectTikTok(kit.t, alice, 'alice_second_drafts');
    const draft = await saveDraft(alice, { mediaIds: [videos[2]], accountId: carolAccount });
    const deleted = await api(kit.t, alice.cookie, 'DELETE', `/api/accounts/${carolAccount}`);
    expect(deleted.statusCode, deleted.body).toBe(200);
    const kept = (await api(kit.t, alice.cookie, 'GET', `/api/drafts/${draft.id}`)).json<Draft>();
    expect(kept.accountId).toBeNull();
  });
});
