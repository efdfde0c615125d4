import type {
  AnalyticsAccount,
  AnalyticsOverview,
  BestTimes,
} from '@cadence/shared/schemas/analytics';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  connectTikTok,
  signUp,
  useScheduleTestApp,
  type TestUser,
} from '../schedules/test-kit.ts';

const DAY = 86_400_000;
const base = useScheduleTestApp('cadence-analytics-api-');

let alice: TestUser;
let bob: TestUser;
let aliceAccount: string;
beforeAll(async () => {
  alice = await signUp(base.t, 'alice-analytics@example.com');
  bob = await signUp(base.t, 'bob-analytics@example.com');
  aliceAccount = await connectTikTok(base.t, alice, 'alice_tt');
  // Alice's TikTok history: 30 videos posted elsewhere, 8 to 37 days ago, one with a title a
  // spreadsheet would run. They fall on 5 hours 3 hours apart, 6 videos each, so best times has
  // 3 slots to suggest whatever the hour the test runs at, and when the 30 days span a change of
  // Paris's offset (a regression: the videos were spread over 24 hours, 2 at most per hour; when
  // the days spanned October's change, too few hours had the 2 videos a slot needs).
  base.sandbox().control.seedVideos(
    { username: 'alice_tt' },
    Array.from({ length: 30 }, (_, index) => ({
      createdAtMs: Date.now() - (8 + index) * DAY - (index % 5) * 3 * 3_600_000,
      title: index === 0 ? '=HYPERLINK("http://evil.example","x")' : `Clip ${index}`,
    })),
  );
  const outcome = await base.t.context.analyticsSync.syncAccount(aliceAccount);
  expect(outcome.status).toBe('synced');
}, 60_000);

const get = <TBody>(user: TestUser, url: string) =>
  api(base.t, user.cookie, 'GET', url).then((response) => ({
    status: response.statusCode,
    body: response.json<TBody>(),
    response,
  }));

async function analyticsAccounts(user: TestUser) {
  const { status, body } = await get<{ accounts: AnalyticsAccount[] }>(
    user,
    '/api/analytics/accounts',
  );
  expect(status).toBe(200);
  return body.accounts;
}

describe('analytics API', () => {
  it('lists the synced account and its history for the last 90 days', async () => {
    const [account] = await analyticsAccounts(alice);
    expect(account).toMatchObject({
      username: 'alice_tt',
      accountId: aliceAccount,
      connected: true,
      videoCount: 30,
    });
    const { status, body } = await get<AnalyticsOverview>(
      alice,
      `/api/analytics/overview?accountId=${account?.id}&period=90d&timeZone=Europe/Paris`,
    );
    expect(status).toBe(200);
    expect(body.range.days).toBe(90);
    expect(body.days).toHaveLength(90);
    expect(body.totals.videosPosted).toBe(30);
    // Each video counts on the day it was posted, with its views to date.
    expect(body.days.reduce((sum, day) => sum + day.postedVideos, 0)).toBe(30);
    expect(body.days.reduce((sum, day) => sum + day.postedVideoViews, 0)).toBeGreaterThan(0);
    expect(body.totals.followers).toBeGreaterThan(0);
    // The top videos: the most viewed first, with the sandbox's covers.
    const views = body.topVideos.map((video) => video.views);
    expect(views).toEqual([...views].sort((a, b) => b - a));
    expect(body.topVideos).toHaveLength(10);
    expect(body.topVideos[0]?.coverImageUrl).toContain('/sandbox/tiktok/cover/');
    expect(body.topVideos[0]?.engagementRate).toBeGreaterThan(0);
    // Only the last day has a reading: nothing is gained before it, followers known from it.
    expect(body.days.at(-1)?.followers).toBe(body.totals.followers);
  });

  it('sums days over accounts, carrying an account’s last reading over days without one', async () => {
    const user = await signUp(base.t, 'carol-analytics@example.com');
    const db = base.t.context.database.db;
    const ids: string[] = [];
    for (const openId of ['open-a', 'open-b']) {
      const row = await db
        .insertInto('analytics_accounts')
        .values({ user_id: user.id, open_id: openId, username: openId })
        .returning('id')
        .executeTakeFirstOrThrow();
      ids.push(row.id);
    }
    const at = (date: string, hour: number) =>
      new Date(`${date}T${String(hour).padStart(2, '0')}:00:00Z`);
    const snapshot = (account: number, takenAt: Date, followers: number, views: number) =>
      db
        .insertInto('analytics_account_snapshots')
        .values({
          analytics_account_id: ids[account] ?? '',
          taken_at: takenAt,
          follower_count: followers,
          view_total: views,
          like_total: views / 10,
          comment_total: 0,
          share_total: 0,
        })
        .execute();
    await snapshot(0, at('2026-01-31', 12), 100, 1000); // baseline, before the range
    await snapshot(0, at('2026-02-01', 8), 105, 1100);
    await snapshot(0, at('2026-02-01', 20), 110, 1500); // the day's last reading counts
    await snapshot(1, at('2026-02-02', 10), 50, 200); // second account starts on day 2
    await snapshot(0, at('2026-02-03', 10), 120, 1800);
    const { status, body } = await get<AnalyticsOverview>(
      user,
      '/api/analytics/overview?period=custom&from=2026-02-01&to=2026-02-03&timeZone=UTC',
    );
    expect(status).toBe(200);
    expect(body.days).toEqual([
      {
        date: '2026-02-01',
        followers: 110,
        views: 500,
        likes: 50,
        comments: 0,
        shares: 0,
        postedVideos: 0,
        postedVideoViews: 0,
      },
      {
        date: '2026-02-02',
        followers: 160,
        views: 200,
        likes: 20,
        comments: 0,
        shares: 0,
        postedVideos: 0,
        postedVideoViews: 0,
      },
      {
        date: '2026-02-03',
        followers: 170,
        views: 300,
        likes: 30,
        comments: 0,
        shares: 0,
        postedVideos: 0,
        postedVideoViews: 0,
      },
    ]);
    expect(body.totals).toMatchObject({
      followers: 170,
      followersChange: 70,
      views: 1000,
      likes: 100,
      engagementRate: 0.1,
    });
  });

  it('exports the table as CSV, with formulas defused', async () => {
    const [account] = await analyticsAccounts(alice);
    const daily = await api(
      base.t,
      alice.cookie,
      'GET',
      `/api/analytics/export.csv?accountId=${account?.id}&period=7d`,
    );
    expect(daily.statusCode).toBe(200);
    expect(daily.headers['content-type']).toContain('text/csv');
    expect(daily.headers['content-disposition']).toContain('attachment');
    const lines = daily.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'date,followers,views,likes,comments,shares,engagement_rate,videos_posted,views_of_videos_posted',
    );
    expect(lines).toHaveLength(8);
    const videos = await api(
      base.t,
      alice.cookie,
      'GET',
      `/api/analytics/export.csv?accountId=${account?.id}&period=90d&table=videos`,
    );
    const rows = videos.body.trimEnd().split('\r\n');
    expect(rows).toHaveLength(31);
    expect(videos.body).toContain(`"'=HYPERLINK(""http://evil.example"",""x"")"`);
    expect(videos.body).not.toMatch(/(^|,)=HYPERLINK/m);
  });

  it('learns best times from the history and suggests the next occurrences of its top slots', async () => {
    const [account] = await analyticsAccounts(alice);
    const { status, body } = await get<BestTimes>(
      alice,
      `/api/analytics/best-times?accountId=${account?.id}&timeZone=Europe/Paris`,
    );
    expect(status).toBe(200);
    expect(body.status).toBe('ok');
    expect(body.videosAnalysed).toBe(30);
    expect(body.cells).toHaveLength(168);
    expect(body.slots).toHaveLength(3);
    for (const slot of body.slots) {
      expect(Date.parse(slot.nextAt)).toBeGreaterThan(Date.now());
      // A slot is an hour the creator posted at least twice, 2 hours or more from the others.
      const atHour = body.cells.filter((cell) => cell.hour === slot.hour);
      expect(atHour.reduce((sum, cell) => sum + cell.posts, 0)).toBeGreaterThanOrEqual(2);
      for (const other of body.slots.filter((o) => o !== slot)) {
        const apart = Math.abs(other.hour - slot.hour);
        expect(Math.min(apart, 24 - apart)).toBeGreaterThanOrEqual(2);
      }
    }

    const newcomer = await signUp(base.t, 'newcomer-analytics@example.com');
    const empty = await get<BestTimes>(newcomer, '/api/analytics/best-times?timeZone=UTC');
    expect(empty.body).toMatchObject({ status: 'not_enough_data', videosAnalysed: 0, slots: [] });
  });

  it('never shows one user another user’s analytics', async () => {
    const [account] = await analyticsAccounts(alice);
    expect(await analyticsAccounts(bob)).toEqual([]);
    for (const url of [
      `/api/analytics/overview?accountId=${account?.id}`,
      `/api/analytics/best-times?accountId=${account?.id}`,
      `/api/analytics/export.csv?accountId=${account?.id}`,
    ]) {
      const { status, body } = await get<{ code: string }>(bob, url);
      expect(status, url).toBe(404);
      expect(body.code).toBe('not_found');
    }
    const everything = await get<AnalyticsOverview>(bob, '/api/analytics/overview?period=90d');
    expect(everything.body.topVideos).toEqual([]);
    expect(everything.body.totals.views).toBe(0);
    const signedOut = await base.t.app.inject({ url: '/api/analytics/accounts' });
    expect(signedOut.statusCode).toBe(401);
  });

  it('refuses bad queries with a translated 400', async () => {
    const cases: [string, string, string][] = [
      ['period=custom&from=2026-01-01', 'to', 'analytics.errors.rangeRequired'],
      ['period=custom&from=2026-02-01&to=2026-01-01', 'to', 'analytics.errors.rangeOrder'],
      ['period=custom&from=2024-01-01&to=2026-01-01', 'from', 'analytics.errors.rangeTooLong'],
      ['period=365d', 'period', 'analytics.errors.invalidPeriod'],
      ['timeZone=Mars/Olympus', 'timeZone', 'errors.invalidTimeZone'],
      ['accountId=1;drop', 'accountId', 'analytics.errors.unknownAccount'],
    ];
    for (const [query, field, key] of cases) {
      const { status, body } = await get<{ code: string; fields: Record<string, string> }>(
        alice,
        `/api/analytics/overview?${query}`,
      );
      expect(status, query).toBe(400);
      expect(body.fields[field], query).toBe(key);
    }
    const tooMany = Array.from({ length: 101 }, () => crypto.randomUUID()).join(',');
    expect((await get(alice, `/api/analytics/posts?ids=${tooMany}`)).status).toBe(400);
    expect((await get(alice, '/api/analytics/posts/not-a-uuid')).status).toBe(400);
  });

  it('keeps a deleted account’s history, and gives it back when the same TikTok user reconnects', async () => {
    const dana = await signUp(base.t, 'dana-analytics@example.com');
    const accountId = await connectTikTok(base.t, dana, 'dana_tt');
    base
      .sandbox()
      .control.seedVideos({ username: 'dana_tt' }, [
        { createdAtMs: Date.now() - 3 * DAY },
        { createdAtMs: Date.now() - 4 * DAY },
      ]);
    await base.t.context.analyticsSync.syncAccount(accountId);
    const [before] = await analyticsAccounts(dana);
    expect(before).toMatchObject({ connected: true, videoCount: 2 });

    const removed = await api(base.t, dana.cookie, 'DELETE', `/api/accounts/${accountId}`);
    expect(removed.statusCode).toBe(200);
    const [after] = await analyticsAccounts(dana);
    expect(after).toMatchObject({
      id: before?.id,
      connected: false,
      accountId: null,
      videoCount: 2,
    });
    const overview = await get<AnalyticsOverview>(
      dana,
      `/api/analytics/overview?accountId=${before?.id}&period=7d`,
    );
    expect(overview.status).toBe(200);
    expect(overview.body.topVideos).toHaveLength(2);
    // A disconnected account is not synced any more.
    expect(await base.t.context.analyticsSync.dueAccountIds()).not.toContain(accountId);

    const again = await connectTikTok(base.t, dana, 'dana_tt');
    await base.t.context.analyticsSync.syncAccount(again);
    const accounts = await analyticsAccounts(dana);
    expect(accounts).toHaveLength(1);
    expect(accounts[0]).toMatchObject({ id: before?.id, accountId: again, connected: true });
  });

  it('answers per-post metrics only for the user’s own posts', async () => {
    const db = base.t.context.database.db;
    const unknownPost = crypto.randomUUID();
    expect((await get(alice, `/api/analytics/posts/${unknownPost}`)).status).toBe(404);
    const list = await get<{ posts: unknown[] }>(alice, `/api/analytics/posts?ids=${unknownPost}`);
    expect(list.body.posts).toEqual([]);
    const rows = await sql<{
      count: number;
    }>`select count(*)::int as count from analytics_videos`.execute(db);
    expect(rows.rows[0]?.count).toBeGreaterThan(0);
  });
});
