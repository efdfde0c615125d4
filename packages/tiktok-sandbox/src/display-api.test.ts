import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import {
  audienceProfileFor,
  finalViews,
  hourLift,
  videoMetricsAt,
  weekdayAndHour,
} from './audience-model.ts';
import { tiktokSandbox } from './plugin.ts';
import { SandboxState } from './sandbox-state.ts';

const CLIENT = { clientKey: 'ck', clientSecret: 'cs', redirectUris: ['https://app.example/cb'] };
const HOUR = 3_600_000;
const START = Date.parse('2026-03-01T12:00:00Z');

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function setUp(
  scopes = ['user.info.basic', 'user.info.stats', 'video.list'],
  rateLimits: Record<string, number> = {},
) {
  const clock = { now: START };
  const state = new SandboxState({
    clients: [CLIENT],
    now: () => clock.now,
    rateLimits,
    audienceTimeZone: 'UTC',
    // Published videos are listed once their id is out: at once here.
    postIdDelayMs: 0,
  });
  app = Fastify();
  await app.register(tiktokSandbox, { state, publicBaseUrl: 'https://sandbox.example' });
  await app.ready();
  const code = state.oauth.issueCode({
    clientKey: 'ck',
    redirectUri: 'https://app.example/cb',
    username: 'creator_stats',
    scopes: scopes as never,
    codeChallenge: null,
  });
  const token = await app.inject({
    method: 'POST',
    url: '/v2/oauth/token/',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({
      client_key: 'ck',
      client_secret: 'cs',
      code,
      grant_type: 'authorization_code',
      redirect_uri: 'https://app.example/cb',
    }).toString(),
  });
  const auth = { authorization: `Bearer ${String(token.json().access_token)}` };
  const server = app;
  const list = (body: object, fields = 'id,create_time,view_count,like_count') =>
    server.inject({
      method: 'POST',
      url: `/v2/video/list/?fields=${fields}`,
      headers: auth,
      payload: body,
    });
  const query = (ids: unknown[], fields = 'id,view_count,cover_image_url') =>
    server.inject({
      method: 'POST',
      url: `/v2/video/query/?fields=${fields}`,
      headers: auth,
      payload: { filters: { video_ids: ids } },
    });
  return { app: server, state, clock, auth, list, query };
}

interface ListedVideo {
  id: string;
  create_time: number;
  view_count: number;
  like_count: number;
}

describe('sandbox Display API (video.list, video.query, user.info.stats)', () => {
  it('pages a seeded history newest first with a millisecond cursor, 20 at most per page', async () => {
    const setup = await setUp();
    const seeded = setup.state.control.seedVideos(
      { username: 'creator_stats' },
      Array.from({ length: 45 }, (_, index) => ({ createdAtMs: START - (index + 1) * HOUR })),
    );
    const seen: string[] = [];
    let cursor: number | undefined;
    let pages = 0;
    for (;;) {
      const response = await setup.list({ max_count: 20, ...(cursor !== undefined && { cursor }) });
      expect(response.statusCode).toBe(200);
      const data = response.json<{
        data: { videos: ListedVideo[]; cursor: number; has_more: boolean };
      }>().data;
      pages += 1;
      seen.push(...data.videos.map((video) => video.id));
      if (!data.has_more) break;
      cursor = data.cursor;
    }
    expect(pages).toBe(3);
    expect(seen).toEqual(seeded.map((video) => video.id));
    expect((await setup.list({ max_count: 21 })).statusCode).toBe(400);
  });

  it('hides a seeded video until the clock reaches its creation time', async () => {
    const setup = await setUp();
    setup.state.control.seedVideos({ username: 'creator_stats' }, [{ createdAtMs: START + HOUR }]);
    const before = setup.list({ max_count: 20 });
    expect((await before).json().data.videos).toEqual([]);
    setup.clock.now = START + 2 * HOUR;
    expect((await setup.list({ max_count: 20 })).json().data.videos).toHaveLength(1);
  });

  it('counts only grow, and follow the audience model', async () => {
    const setup = await setUp();
    const [video] = setup.state.control.seedVideos({ username: 'creator_stats' }, [
      { createdAtMs: START },
    ]);
    const views: number[] = [];
    // Within the access token's 24 h lifetime.
    for (const hours of [0, 1, 6, 12, 23]) {
      setup.clock.now = START + hours * HOUR;
      const listed = (await setup.list({ max_count: 1 })).json().data.videos[0] as ListedVideo;
      views.push(listed.view_count);
      const profile = setup.state.videos.audienceOf('creator_stats');
      expect(listed.view_count).toBe(
        videoMetricsAt(profile, video?.id ?? '', START, setup.clock.now).viewCount,
      );
    }
    expect(views[0]).toBe(0);
    expect(views).toEqual([...views].sort((a, b) => a - b));
    expect(views[4]).toBeGreaterThan(views[1] ?? 0);
  });

  it('queries up to 20 of the user’s own ids and leaves out the others', async () => {
    const setup = await setUp();
    const seeded = setup.state.control.seedVideos(
      { username: 'creator_stats' },
      Array.from({ length: 3 }, (_, index) => ({ createdAtMs: START - (index + 1) * HOUR })),
    );
    const other = setup.state.control.seedVideos({ username: 'someone_else' }, [
      { createdAtMs: START - HOUR },
    ]);
    const ids = [seeded[0]?.id, other[0]?.id, '7000000000000000001', seeded[2]?.id];
    const response = await setup.query(ids);
    expect(response.statusCode).toBe(200);
    const videos = response.json<{ data: { videos: { id: string; cover_image_url: string }[] } }>()
      .data.videos;
    expect(videos.map((video) => video.id).sort()).toEqual([seeded[0]?.id, seeded[2]?.id].sort());
    expect(videos[0]?.cover_image_url).toMatch(/^https:\/\/sandbox\.example\/cover\/\d+\.svg$/);
    const tooMany = await setup.query(
      Array.from({ length: 21 }, (_, index) => String(7e18 + index)),
    );
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().error.code).toBe('invalid_params');
    const cover = await setup.app.inject({ url: `/cover/${seeded[0]?.id ?? ''}.svg` });
    expect(cover.headers['content-type']).toContain('image/svg+xml');
  });

  it('reports follower, likes and video counts with user.info.stats, and refuses them without', async () => {
    const setup = await setUp();
    setup.state.control.seedVideos(
      { username: 'creator_stats' },
      Array.from({ length: 5 }, (_, index) => ({ createdAtMs: START - (index + 1) * 24 * HOUR })),
    );
    const info = await setup.app.inject({
      url: '/v2/user/info/?fields=follower_count,following_count,likes_count,video_count',
      headers: setup.auth,
    });
    const user = info.json().data.user;
    expect(user.video_count).toBe(5);
    expect(user.likes_count).toBeGreaterThan(0);
    expect(user.follower_count).toBeGreaterThan(audienceProfileFor('creator_stats').baseFollowers);

    const basicOnly = await setUp(['user.info.basic', 'video.list']);
    const refused = await basicOnly.app.inject({
      url: '/v2/user/info/?fields=follower_count',
      headers: basicOnly.auth,
    });
    expect(refused.statusCode).toBe(401);
    expect(refused.json().error.code).toBe('scope_not_authorized');
  });

  it('answers 429 rate_limit_exceeded past the per-token limit, per endpoint, in a sliding minute', async () => {
    const setup = await setUp(undefined, { video_list: 2, video_query: 1 });
    expect((await setup.list({})).statusCode).toBe(200);
    expect((await setup.list({})).statusCode).toBe(200);
    const limited = await setup.list({});
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error.code).toBe('rate_limit_exceeded');
    // Another endpoint has its own budget.
    expect((await setup.query(['7000000000000000001'])).statusCode).toBe(200);
    setup.clock.now += 61_000;
    expect((await setup.list({})).statusCode).toBe(200);
  });
});

describe('sandbox audience model', () => {
  it('is the same for the same username and plants two distinct good hours', () => {
    const a = audienceProfileFor('maya');
    expect(audienceProfileFor('maya')).toEqual(a);
    expect(audienceProfileFor('noor')).not.toEqual(a);
    const [best, second] = a.goodHours;
    expect(best && second && Math.abs(best.hour - second.hour)).toBeGreaterThanOrEqual(3);
  });

  it('lifts the planted hours above the others on average', () => {
    const profile = audienceProfileFor('maya', 'UTC');
    const best = profile.goodHours[0]?.hour ?? 0;
    const ordinary = (best + 6) % 24;
    expect(hourLift(profile, best)).toBeGreaterThan(2);
    expect(hourLift(profile, ordinary)).toBe(1);
    const day = Date.parse('2026-03-02T00:00:00Z');
    const mean = (hour: number) => {
      let sum = 0;
      for (let index = 0; index < 200; index++) {
        sum += finalViews(profile, `v${hour}-${index}`, day + hour * HOUR);
      }
      return sum / 200;
    };
    expect(mean(best) / mean(ordinary)).toBeGreaterThan(1.8);
  });

  it('reads weekday and hour on the wall clock of the time zone', () => {
    // Monday 2026-03-02 23:30 UTC is Tuesday 00:30 in Paris.
    const at = Date.parse('2026-03-02T23:30:00Z');
    expect(weekdayAndHour(at, 'UTC')).toEqual({ weekday: 0, hour: 23 });
    expect(weekdayAndHour(at, 'Europe/Paris')).toEqual({ weekday: 1, hour: 0 });
  });
});
