import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { TikTokClient } from '../../tiktok/tiktok-client.ts';
import { pollUntil } from '../../tiktok/sandbox-test-kit.ts';
import { connectTikTok, signUp, useScheduleTestApp, type TestUser } from '../schedules/test-kit.ts';
import { createAnalyticsRepository } from './repository.ts';
import { nextSnapshotAt, viewsAt24h } from './snapshot-schedule.ts';
import { createAnalyticsSync, type AnalyticsSyncDeps } from './sync.ts';

const HOUR = 3_600_000;
const base = useScheduleTestApp('cadence-analytics-sync-');

let users = 0;
/** A creator with a connected account whose TikTok user posted `count` videos elsewhere. */
async function creatorWithHistory(count: number, options: { ageHours?: number } = {}) {
  users += 1;
  const user = await signUp(base.t, `sync-${users}@example.com`);
  const username = `history_${users}`;
  const accountId = await connectTikTok(base.t, user, username);
  const start = Date.now() - (options.ageHours ?? 72) * HOUR;
  const seeded = base.sandbox().control.seedVideos(
    { username },
    Array.from({ length: count }, (_, index) => ({ createdAtMs: start - index * HOUR })),
  );
  return { user, username, accountId, seeded };
}

/** The TikTok client the app uses, with every list request's cursor recorded. */
function recordingClient(overrides: Partial<TikTokClient> = {}) {
  const cursors: (number | undefined)[] = [];
  const client = base.t.context.tiktok;
  const tiktok: AnalyticsSyncDeps['tiktok'] = {
    getUserInfo: (...args) => client.getUserInfo(...args),
    queryVideos: (...args) => client.queryVideos(...args),
    listVideos: (token, input, options) => {
      cursors.push(input.cursor);
      return (overrides.listVideos ?? client.listVideos)(token, input, options);
    },
  };
  return { tiktok, cursors };
}

function syncWith(overrides: Partial<AnalyticsSyncDeps> = {}) {
  const { context } = base.t;
  return createAnalyticsSync({
    repository: createAnalyticsRepository(context.database.db),
    accounts: context.accountRepository,
    tokens: context.tokens,
    tiktok: context.tiktok,
    backoffBaseMs: 5,
    ...overrides,
  });
}

async function storedVideos(accountId: string) {
  const rows = await sql<{ video_id: string; view_count: number; account_id: string | null }>`
    select v.video_id, v.view_count, a.account_id from analytics_videos v
    join analytics_accounts a on a.id = v.analytics_account_id
    where a.account_id = ${accountId}
  `.execute(base.t.context.database.db);
  return rows.rows;
}

async function analyticsRow(user: TestUser) {
  const rows = await sql<{
    id: string;
    list_cursor: number | null;
    lease_owner: string | null;
    next_sync_at: Date;
    last_error: string | null;
  }>`select * from analytics_accounts where user_id = ${user.id}`.execute(
    base.t.context.database.db,
  );
  return rows.rows[0];
}

describe('analytics sync', () => {
  it('pages through the whole history once, then only asks for what changed', async () => {
    const { accountId, seeded } = await creatorWithHistory(45);
    const sync = syncWith();
    const first = await sync.syncAccount(accountId);
    // ⌈45 / 20⌉ pages, plus the account's totals: the minimum TikTok allows.
    expect(first).toMatchObject({
      status: 'synced',
      calls: { video_list: 3, user_info: 1, video_query: 0 },
      rateLimited: 0,
    });
    const stored = await storedVideos(accountId);
    expect(stored.map((row) => row.video_id).sort()).toEqual(seeded.map((v) => v.id).sort());
    expect(stored.every((row) => row.view_count > 0)).toBe(true);

    // Nothing new, nothing due: one page to see that, no totals within the hour.
    const second = await sync.syncAccount(accountId);
    expect(second).toMatchObject({
      status: 'synced',
      calls: { video_list: 1, user_info: 0, video_query: 0 },
    });

    // A new video posted elsewhere shows up on the first page.
    const username = seeded[0]?.username ?? '';
    const [fresh] = base
      .sandbox()
      .control.seedVideos({ username }, [{ createdAtMs: Date.now() - 60_000 }]);
    const third = await sync.syncAccount(accountId);
    expect(third).toMatchObject({ status: 'synced', calls: { video_list: 1, video_query: 0 } });
    expect((await storedVideos(accountId)).map((row) => row.video_id)).toContain(fresh?.id);
  });

  it('refreshes due videos with video/query, 20 ids at a time', async () => {
    const { accountId, user } = await creatorWithHistory(30);
    const sync = syncWith();
    await sync.syncAccount(accountId);
    // Make 25 of them due (their daily snapshot has come).
    await sql`
      update analytics_videos set next_snapshot_at = now() - interval '1 minute'
      where user_id = ${user.id} and video_id in (
        select video_id from analytics_videos where user_id = ${user.id} order by posted_at limit 25)
    `.execute(base.t.context.database.db);
    const outcome = await sync.syncAccount(accountId);
    // The first page refreshed the 20 newest; 10 of the 25 due were not on it: one query.
    expect(outcome).toMatchObject({ status: 'synced', calls: { video_list: 1, video_query: 1 } });
    const due = await sql<{ count: number }>`
      select count(*)::int as count from analytics_videos
      where user_id = ${user.id} and next_snapshot_at <= now()
    `.execute(base.t.context.database.db);
    expect(due.rows[0]?.count).toBe(0);
  });

  it('backs off on 429 and carries on; past its retries it stops and resumes from its cursor', async () => {
    const { accountId, user, seeded } = await creatorWithHistory(50);
    const control = base.sandbox().control;
    control.failNext('video_list', { type: 'http_error', status: 429 }, 2);
    const sleeps: number[] = [];
    const patient = syncWith({
      sleep: async (ms) => {
        sleeps.push(ms);
      },
    });
    const outcome = await patient.syncAccount(accountId);
    expect(outcome).toMatchObject({ status: 'synced', rateLimited: 2, calls: { video_list: 5 } });
    // Exponential: 5 ms, then 10 ms.
    expect(sleeps).toEqual([5, 10]);
    expect(await storedVideos(accountId)).toHaveLength(50);

    // A second creator: TikTok keeps answering 429 after the first page.
    const other = await creatorWithHistory(50);
    const { tiktok, cursors } = recordingClient();
    let listed = 0;
    const impatient = syncWith({
      maxRetries: 2,
      sleep: async () => undefined,
      tiktok: {
        ...tiktok,
        listVideos: async (...args) => {
          listed += 1;
          if (listed === 2) control.failNext('video_list', { type: 'http_error', status: 429 }, 3);
          return tiktok.listVideos(...args);
        },
      },
    });
    const stopped = await impatient.syncAccount(other.accountId);
    expect(stopped).toMatchObject({ status: 'rate_limited', rateLimited: 3 });
    const row = await analyticsRow(other.user);
    expect(row?.list_cursor).not.toBeNull();
    expect(row?.lease_owner).toBeNull();
    expect(row?.last_error).toContain('RateLimited');
    expect(row?.next_sync_at.getTime()).toBeGreaterThan(Date.now() + 30_000);
    const resumed = await syncWith({ tiktok }).syncAccount(other.accountId);
    expect(resumed).toMatchObject({ status: 'synced', calls: { video_list: 2 } });
    // The resumed run started from the stored cursor, not from the newest video again.
    expect(cursors.at(-2)).toBe(Number(row?.list_cursor));
    expect(await storedVideos(other.accountId)).toHaveLength(50);
    expect(user.id).not.toBe(other.user.id);
    expect(seeded).toHaveLength(50);
  });

  it('a run that dies mid-listing is resumed by the next one from its stored cursor', async () => {
    const { accountId, user } = await creatorWithHistory(65);
    let releaseHang: (error: Error) => void = () => undefined;
    const { tiktok: dying } = recordingClient();
    let calls = 0;
    // The process "dies" on its third page: the request never comes back and nothing renews.
    const crashed = syncWith({
      leaseMs: 800,
      tiktok: {
        ...dying,
        listVideos: (...args) => {
          calls += 1;
          if (calls < 3) return dying.listVideos(...args);
          return new Promise((_, reject) => {
            releaseHang = reject;
          });
        },
      },
    }).syncAccount(accountId);
    const settled = crashed.then(
      () => 'resolved',
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    );
    await pollUntil(
      async () => calls,
      (count) => count === 3,
    );
    const stored = await analyticsRow(user);
    expect(stored?.list_cursor).not.toBeNull();
    expect(await storedVideos(accountId)).toHaveLength(40);

    const { tiktok, cursors } = recordingClient();
    const next = syncWith({ tiktok });
    // Busy while the dead run's lease lasts, then the next run takes over.
    const outcome = await pollUntil(
      () => next.syncAccount(accountId),
      (result) => result.status !== 'busy',
      { timeoutMs: 10_000, intervalMs: 100 },
    );
    expect(outcome).toMatchObject({ status: 'synced', calls: { video_list: 2 } });
    expect(cursors[0]).toBe(Number(stored?.list_cursor));
    const videos = await storedVideos(accountId);
    expect(videos).toHaveLength(65);
    expect(new Set(videos.map((video) => video.video_id)).size).toBe(65);

    // The dead run's request finally fails: it finds its lease gone and touches nothing.
    const after = await analyticsRow(user);
    releaseHang(new Error('process died'));
    expect(await settled).toBe('process died');
    expect(await analyticsRow(user)).toEqual(after);
  });

  it('skips accounts without video.list and reports the ones due', async () => {
    const { accountId } = await creatorWithHistory(1);
    const sync = syncWith();
    expect(await sync.dueAccountIds()).toContain(accountId);
    await sync.syncAccount(accountId);
    expect(await sync.dueAccountIds()).not.toContain(accountId);
    await sql`update tiktok_accounts set scopes = '{user.info.basic}' where id = ${accountId}`.execute(
      base.t.context.database.db,
    );
    expect(await sync.syncAccount(accountId)).toEqual({ status: 'skipped' });
  });
});

describe('snapshot schedule', () => {
  const posted = new Date('2026-03-02T10:00:00Z');
  it('is hourly for the first 48 h, daily after', () => {
    expect(nextSnapshotAt(posted, new Date(posted.getTime() + 30 * 60_000))).toEqual(
      new Date(posted.getTime() + HOUR),
    );
    expect(nextSnapshotAt(posted, new Date(posted.getTime() + 47.5 * HOUR))).toEqual(
      new Date(posted.getTime() + 48 * HOUR),
    );
    const later = new Date(posted.getTime() + 50 * HOUR);
    expect(nextSnapshotAt(posted, later)).toEqual(new Date(later.getTime() + 24 * HOUR));
  });

  it('interpolates views at 24 h between the observations around it', () => {
    const at = (hours: number) => new Date(posted.getTime() + hours * HOUR);
    expect(viewsAt24h(posted, { at: at(23), views: 900 }, { at: at(25), views: 1100 })).toBe(1000);
    expect(viewsAt24h(posted, null, { at: at(25), views: 1100 })).toBeNull();
    expect(viewsAt24h(posted, { at: at(22), views: 900 }, { at: at(23), views: 950 })).toBeNull();
  });
});
