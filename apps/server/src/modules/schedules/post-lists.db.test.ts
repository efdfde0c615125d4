import type { Calendar, PostPage } from '@cadence/shared/schemas/planning';
import type { PostStatus } from '@cadence/shared/schemas/schedule';
import { beforeAll, describe, expect, it } from 'vitest';
import { seedPosts, type SeededPost } from '../../test-support/seed-posts.ts';
import {
  addVideo,
  api,
  connectTikTok,
  signUp,
  useScheduleTestApp,
  type TestUser,
} from './test-kit.ts';

const kit = useScheduleTestApp('cadence-post-lists-');
let alice: TestUser;
let bob: TestUser;
let aliceMain: string;
let aliceSecond: string;
let bobAccount: string;
let aliceVideo: string;
let bobVideo: string;

const HOUR = 3_600_000;
const base = Date.parse('2099-03-01T10:00:00Z');

/** Posts straight into the database (as many as a test needs), with the given statuses. */
function seed(
  user: TestUser,
  accountId: string,
  mediaId: string,
  posts: SeededPost[],
): Promise<string[]> {
  return seedPosts(
    kit.t.context.database.db,
    { userId: user.id, accountId, username: 'seeded', mediaId },
    posts,
  );
}

async function page(user: TestUser, url: string): Promise<PostPage> {
  const response = await api(kit.t, user.cookie, 'GET', url);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<PostPage>();
}

/** Every page of a list, following the cursors; `between` runs after each page. */
async function walk(
  user: TestUser,
  path: string,
  between: (pageIndex: number) => Promise<void> = async () => {},
): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  for (let index = 0; index < 100; index++) {
    const separator = path.includes('?') ? '&' : '?';
    const url: string = cursor === null ? path : `${path}${separator}cursor=${cursor}`;
    const result = await page(user, url);
    ids.push(...result.posts.map((post) => post.id));
    cursor = result.nextCursor;
    if (cursor === null) return ids;
    await between(index);
  }
  throw new Error('too many pages');
}

beforeAll(async () => {
  alice = await signUp(kit.t, 'alice.lists@example.com');
  bob = await signUp(kit.t, 'bob.lists@example.com');
  aliceMain = await connectTikTok(kit.t, alice, 'alice_main');
  aliceSecond = await connectTikTok(kit.t, alice, 'alice_second');
  bobAccount = await connectTikTok(kit.t, bob, 'bob_lists');
  aliceVideo = (await addVideo(kit.t, alice, kit.dir, 'alice-list')).mediaId;
  bobVideo = (await addVideo(kit.t, bob, kit.dir, 'bob-list')).mediaId;
}, 60_000);

describe('GET /api/posts/queue', () => {
  it('lists pending and publishing posts soonest first, pages stable while posts are added', async () => {
    // Two posts share each due time: the id breaks the tie, so none is skipped or repeated.
    const dueTimes = Array.from(
      { length: 24 },
      (_, i) => new Date(base + Math.floor(i / 2) * HOUR),
    );
    const seeded = await seed(
      alice,
      aliceMain,
      aliceVideo,
      dueTimes.map((dueAt, i) => ({ dueAt, status: i % 5 === 0 ? 'publishing' : 'pending' })),
    );
    await seed(alice, aliceMain, aliceVideo, [
      { dueAt: new Date(base), status: 'completed' },
      { dueAt: new Date(base + HOUR), status: 'cancelled' },
    ]);
    await seed(bob, bobAccount, bobVideo, [{ dueAt: new Date(base + 30 * 60_000) }]);

    const inserted: string[] = [];
    const ids = await walk(alice, '/api/posts/queue?limit=5', async (index) => {
      // Between pages, new posts arrive both before the cursor and after it.
      inserted.push(
        ...(await seed(alice, aliceMain, aliceVideo, [
          { dueAt: new Date(base - (index + 1) * HOUR) },
          { dueAt: new Date(base + 100 * HOUR + index) },
        ])),
      );
    });
    // Every seeded post exactly once, in (due time, id) order; the ones added behind the
    // cursor are not shown (they belong on an earlier page), the ones ahead of it are.
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.slice(0, seeded.length).sort()).toEqual([...seeded].sort());
    const rows = await kit.t.context.database.db
      .selectFrom('posts')
      .select(['id', 'due_at'])
      .where('id', 'in', ids)
      .execute();
    const dueOf = new Map(rows.map((row) => [row.id, row.due_at.getTime()]));
    const order = ids.map((id) => [dueOf.get(id) ?? 0, id] as const);
    const sorted = [...order].sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : 1));
    expect(order).toEqual(sorted);
    expect(ids.filter((id) => inserted.includes(id)).length).toBeGreaterThan(0);
  });

  it('filters by account and status, and never shows another user’s posts', async () => {
    const second = await seed(alice, aliceSecond, aliceVideo, [
      { dueAt: new Date(base + 2 * HOUR) },
      { dueAt: new Date(base + 3 * HOUR), status: 'publishing' },
    ]);
    const onSecond = await walk(alice, `/api/posts/queue?accountId=${aliceSecond}`);
    expect(onSecond).toEqual(second);
    const publishing = await walk(
      alice,
      `/api/posts/queue?accountId=${aliceSecond}&status=publishing`,
    );
    expect(publishing).toEqual([second[1]]);
    // Bob's account as a filter: nothing of Bob's comes back.
    expect(await walk(alice, `/api/posts/queue?accountId=${bobAccount}`)).toEqual([]);
    const bobs = await walk(bob, '/api/posts/queue');
    expect(bobs).toHaveLength(1);
    expect((await walk(alice, '/api/posts/queue')).includes(bobs[0] ?? '')).toBe(false);
  });

  it('refuses bad filters, cursors and page sizes with translated 400s', async () => {
    const cases: [string, Record<string, string>][] = [
      ['/api/posts/queue?status=completed', { status: 'errors.invalidStatusFilter' }],
      ['/api/posts/queue?status=', { status: 'errors.invalidStatusFilter' }],
      ['/api/posts/queue?limit=51', { limit: 'errors.invalidField' }],
      ['/api/posts/queue?limit=0', { limit: 'errors.invalidField' }],
      ['/api/posts/queue?accountId=nope', { accountId: 'errors.selectTikTokAccount' }],
      ['/api/posts/queue?cursor=not-a-cursor', { cursor: 'errors.invalidCursor' }],
      [
        `/api/posts/history?cursor=${Buffer.from('["2020-01-01T00:00:00Z","x"]').toString('base64url')}`,
        { cursor: 'errors.invalidCursor' },
      ],
    ];
    for (const [url, fields] of cases) {
      const response = await api(kit.t, alice.cookie, 'GET', url);
      expect(response.statusCode, url).toBe(400);
      expect(response.json<{ fields: Record<string, string> }>().fields, url).toEqual(fields);
    }
    expect((await kit.t.app.inject({ url: '/api/posts/queue' })).statusCode).toBe(401);
  });
});

describe('GET /api/posts/history', () => {
  it('lists completed, failed and cancelled posts latest first, 50 at most per page', async () => {
    const carol = await signUp(kit.t, 'carol.lists@example.com');
    const account = await connectTikTok(kit.t, carol, 'carol_history');
    const video = (await addVideo(kit.t, carol, kit.dir, 'carol-history')).mediaId;
    const statuses: PostStatus[] = ['completed', 'failed', 'cancelled'];
    const seeded = await seed(
      carol,
      account,
      video,
      Array.from({ length: 120 }, (_, i) => ({
        dueAt: new Date(base - i * HOUR),
        status: statuses[i % 3] ?? 'completed',
      })),
    );
    await seed(carol, account, video, [{ dueAt: new Date(base + HOUR) }]);
    const first = await page(carol, '/api/posts/history?limit=50');
    expect(first.posts).toHaveLength(50);
    expect(first.posts.map((post) => post.id)).toEqual(seeded.slice(0, 50));
    expect(JSON.stringify(first).length).toBeLessThan(50 * 1500);
    const all = await walk(carol, '/api/posts/history?limit=50');
    expect(all).toEqual(seeded);
    const failed = await walk(carol, '/api/posts/history?status=failed,cancelled');
    expect(failed).toEqual(seeded.filter((_, i) => i % 3 !== 0));
    const defaultSize = await page(carol, '/api/posts/history');
    expect(defaultSize.posts).toHaveLength(20);
  });

  // Regression: the history was sorted and grouped by due time, so a post due next week that the
  // creator cancelled (today or days ago) sat above today's posts, under next week's date.
  it('is in the order things happened, not in the order posts were due', async () => {
    const erin = await signUp(kit.t, 'erin.lists@example.com');
    const account = await connectTikTok(kit.t, erin, 'erin_history');
    const video = (await addVideo(kit.t, erin, kit.dir, 'erin-history')).mediaId;
    const now = Date.now();
    const [published, failed, tiedA, tiedB, cancelledEarlier] = await seed(erin, account, video, [
      { dueAt: new Date(now - 3 * HOUR), status: 'completed' },
      { dueAt: new Date(now - 48 * HOUR), status: 'failed' },
      // Published together, each due at another time: the id orders them (pages are stable).
      {
        dueAt: new Date(now - 30 * HOUR),
        status: 'completed',
        outcomeAt: new Date(now - 5 * HOUR),
      },
      { dueAt: new Date(now - 6 * HOUR), status: 'completed', outcomeAt: new Date(now - 5 * HOUR) },
      // Cancelled two days ago, for a time still ahead: it was at the top, above today's posts.
      {
        dueAt: new Date(now + 8 * 24 * HOUR),
        status: 'cancelled',
        outcomeAt: new Date(now - 47 * HOUR),
      },
    ]);
    const nextWeek = new Date(now + 7 * 24 * HOUR);
    const [later] = await seed(erin, account, video, [{ dueAt: nextWeek }]);
    const cancel = await api(kit.t, erin.cookie, 'POST', `/api/posts/${later}/cancel`);
    expect(cancel.statusCode, cancel.body).toBe(200);

    const tied = [tiedA, tiedB].sort().reverse();
    const expected = [later, published, ...tied, cancelledEarlier, failed];
    expect((await page(erin, '/api/posts/history')).posts.map((post) => post.id)).toEqual(expected);
    // One post a page: the cursor follows the same (outcome, id) key, ties included.
    expect(await walk(erin, '/api/posts/history?limit=1')).toEqual(expected);
    const [first] = (await page(erin, '/api/posts/history?limit=1')).posts;
    // It still says when it had been due.
    expect(first?.dueAt).toBe(nextWeek.toISOString());
    expect(Date.parse(first?.outcomeAt ?? '')).toBeGreaterThanOrEqual(now - 1000);
    expect(Date.parse(first?.outcomeAt ?? '')).toBeLessThanOrEqual(Date.now() + 1000);

    // Restored, it leaves the history without an outcome; cancelled again, it is news again.
    const restore = await api(kit.t, erin.cookie, 'POST', `/api/posts/${later}/restore`);
    expect(restore.statusCode, restore.body).toBe(200);
    const [queued] = (await page(erin, '/api/posts/queue')).posts;
    expect(queued).toMatchObject({ id: later, outcomeAt: null });
    expect(await walk(erin, '/api/posts/history?limit=2')).toEqual(expected.slice(1));
    const again = await api(kit.t, erin.cookie, 'POST', `/api/posts/${later}/cancel`);
    expect(again.statusCode, again.body).toBe(200);
    const [recancelled] = (await page(erin, '/api/posts/history?limit=1')).posts;
    expect(recancelled?.id).toBe(later);
    expect(Date.parse(recancelled?.outcomeAt ?? '')).toBeGreaterThan(
      Date.parse(first?.outcomeAt ?? ''),
    );
  });
});

describe('GET /api/posts/calendar', () => {
  it('returns the posts of a range and per-account counts per day in the zone asked for', async () => {
    const dave = await signUp(kit.t, 'dave.lists@example.com');
    const main = await connectTikTok(kit.t, dave, 'dave_main');
    const other = await connectTikTok(kit.t, dave, 'dave_other');
    const video = (await addVideo(kit.t, dave, kit.dir, 'dave-cal')).mediaId;
    // Around Paris's spring-forward night (2099-03-29): 23:30 local on the 28th is 22:30 UTC.
    await seed(dave, main, video, [
      { dueAt: new Date('2099-03-28T22:30:00Z') }, // 28th, 23:30 in Paris
      { dueAt: new Date('2099-03-28T23:30:00Z') }, // 29th, 00:30 in Paris
      { dueAt: new Date('2099-03-29T22:30:00Z'), status: 'failed' }, // 30th, 00:30 (summer time)
      { dueAt: new Date('2099-03-29T21:30:00Z'), status: 'completed' }, // 29th, 23:30
    ]);
    await seed(dave, other, video, [{ dueAt: new Date('2099-03-29T08:00:00Z') }]);
    await seed(bob, bobAccount, bobVideo, [{ dueAt: new Date('2099-03-29T08:00:00Z') }]);

    const response = await api(
      kit.t,
      dave.cookie,
      'GET',
      '/api/posts/calendar?from=2099-03-28T00:00:00Z&to=2099-04-01T00:00:00Z&timeZone=Europe/Paris',
    );
    expect(response.statusCode, response.body).toBe(200);
    const calendar = response.json<Calendar>();
    expect(calendar.timeZone).toBe('Europe/Paris');
    expect(calendar.dailyCap).toBe(15);
    expect(calendar.truncated).toBe(false);
    expect(calendar.posts.map((post) => post.dueAt)).toEqual([
      '2099-03-28T22:30:00.000Z',
      '2099-03-28T23:30:00.000Z',
      '2099-03-29T08:00:00.000Z',
      '2099-03-29T21:30:00.000Z',
      '2099-03-29T22:30:00.000Z',
    ]);
    const byDay = [...calendar.days].sort(
      (a, b) =>
        a.date.localeCompare(b.date) || (a.accountId === main ? -1 : b.accountId === main ? 1 : 0),
    );
    expect(byDay).toEqual([
      { date: '2099-03-28', accountId: main, accountUsername: 'seeded', total: 1, towardsCap: 1 },
      { date: '2099-03-29', accountId: main, accountUsername: 'seeded', total: 2, towardsCap: 2 },
      { date: '2099-03-29', accountId: other, accountUsername: 'seeded', total: 1, towardsCap: 1 },
      { date: '2099-03-30', accountId: main, accountUsername: 'seeded', total: 1, towardsCap: 0 },
    ]);
    expect(calendar.days.map((day) => day.date)).toEqual(byDay.map((day) => day.date));

    // In UTC the same posts fall on other days.
    const utc = await api(
      kit.t,
      dave.cookie,
      'GET',
      `/api/posts/calendar?from=2099-03-28T00:00:00Z&to=2099-04-01T00:00:00Z&timeZone=UTC&accountId=${main}`,
    );
    expect(utc.json<Calendar>().days.map((day) => [day.date, day.total])).toEqual([
      ['2099-03-28', 2],
      ['2099-03-29', 2],
    ]);

    const limited = await api(
      kit.t,
      dave.cookie,
      'GET',
      '/api/posts/calendar?from=2099-03-28T00:00:00Z&to=2099-04-01T00:00:00Z&limit=2&status=pending',
    );
    const cut = limited.json<Calendar>();
    expect(cut.posts.map((post) => post.status)).toEqual(['pending', 'pending']);
    expect(cut.truncated).toBe(true);
    // Counts stay complete whatever the limit and the status filter.
    expect(cut.days.reduce((sum, day) => sum + day.total, 0)).toBe(5);

    // Bob asking for Dave's account over the same range sees nothing of Dave's: no post, no count.
    const snooped = await api(
      kit.t,
      bob.cookie,
      'GET',
      `/api/posts/calendar?from=2099-03-28T00:00:00Z&to=2099-04-01T00:00:00Z&timeZone=Europe/Paris&accountId=${main}`,
    );
    expect(snooped.statusCode, snooped.body).toBe(200);
    expect(snooped.json<Calendar>()).toMatchObject({ posts: [], days: [] });
    // Bob's own range holds his post only.
    const bobs = await api(
      kit.t,
      bob.cookie,
      'GET',
      '/api/posts/calendar?from=2099-03-28T00:00:00Z&to=2099-04-01T00:00:00Z&timeZone=Europe/Paris',
    );
    expect(bobs.json<Calendar>().posts.map((post) => post.accountId)).toEqual([bobAccount]);
  });

  it('cuts long captions, bounds the range and refuses unknown zones', async () => {
    const long = 'é'.repeat(3000).slice(0, 2200);
    await seed(alice, aliceMain, aliceVideo, [
      { dueAt: new Date('2099-05-05T10:00:00Z'), title: long },
    ]);
    const response = await api(
      kit.t,
      alice.cookie,
      'GET',
      '/api/posts/calendar?from=2099-05-05T00:00:00Z&to=2099-05-06T00:00:00Z',
    );
    const calendar = response.json<Calendar>();
    expect(calendar.timeZone).toBe('UTC');
    expect([...(calendar.posts[0]?.title ?? '')]).toHaveLength(100);
    const bad: [string, Record<string, string>][] = [
      ['from=2099-05-05T00:00:00Z&to=2099-06-20T00:00:00Z', { to: 'errors.invalidRange' }],
      ['from=2099-05-05T00:00:00Z&to=2099-05-04T00:00:00Z', { to: 'errors.invalidRange' }],
      ['from=yesterday&to=2099-05-04T00:00:00Z', { from: 'errors.invalidDate' }],
      [
        'from=2099-05-05T00:00:00Z&to=2099-05-06T00:00:00Z&timeZone=Mars/Olympus',
        { timeZone: 'errors.invalidTimeZone' },
      ],
      [
        'from=2099-05-05T00:00:00Z&to=2099-05-06T00:00:00Z&limit=1001',
        { limit: 'errors.invalidField' },
      ],
    ];
    for (const [query, fields] of bad) {
      const refused = await api(kit.t, alice.cookie, 'GET', `/api/posts/calendar?${query}`);
      expect(refused.statusCode, query).toBe(400);
      expect(refused.json<{ fields: Record<string, string> }>().fields, query).toEqual(fields);
    }
  });
});

describe('GET /api/posts/:id', () => {
  it('answers my post with its zone and settings, and 404 for anyone else’s', async () => {
    const [mine] = await seed(alice, aliceMain, aliceVideo, [{ dueAt: new Date(base) }]);
    const [bobs] = await seed(bob, bobAccount, bobVideo, [{ dueAt: new Date(base) }]);
    const response = await api(kit.t, alice.cookie, 'GET', `/api/posts/${mine}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      id: mine,
      timeZone: 'Europe/Paris',
      privacyLevel: 'SELF_ONLY',
      allowComment: false,
      note: null,
      postponedFrom: null,
    });
    expect((await api(kit.t, alice.cookie, 'GET', `/api/posts/${bobs}`)).statusCode).toBe(404);
    expect((await api(kit.t, alice.cookie, 'GET', '/api/posts/42')).statusCode).toBe(404);
  });
});
