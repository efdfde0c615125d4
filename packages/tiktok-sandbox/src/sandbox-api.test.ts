import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { tiktokSandbox, type TikTokSandboxOptions } from './plugin.ts';
import type { SandboxScope } from './options.ts';
import { SandboxState } from './sandbox-state.ts';

const CLIENT = { clientKey: 'ck', clientSecret: 'cs', redirectUris: ['https://app.example/cb'] };
const MP4_HEADER = Buffer.from('00000018667479706d703432', 'hex');

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** A user's consent to the test app ('ck'), exchanged for an access token. */
async function connect(
  server: FastifyInstance,
  state: SandboxState,
  username: string,
  scopes: SandboxScope[],
): Promise<string> {
  const code = state.oauth.issueCode({
    clientKey: 'ck',
    redirectUri: 'https://app.example/cb',
    username,
    scopes,
    codeChallenge: null,
  });
  const token = await server.inject({
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
  return String(token.json().access_token);
}

/** A sandbox mounted without prefix, a manual clock, and a connected user's access token. */
async function setUp(options: Partial<TikTokSandboxOptions> = {}) {
  const clock = { now: Date.parse('2026-03-01T12:00:00Z') };
  const state = new SandboxState({ clients: [CLIENT], now: () => clock.now, ...options });
  app = Fastify();
  await app.register(tiktokSandbox, {
    state,
    publicBaseUrl: 'https://sandbox.example',
    ...options,
  });
  await app.ready();
  const accessToken = await connect(app, state, 'creator_7', [
    'user.info.basic',
    'video.publish',
    'video.list',
  ]);
  return { app, state, clock, accessToken, auth: { authorization: `Bearer ${accessToken}` } };
}

async function init(
  setup: Awaited<ReturnType<typeof setUp>>,
  sourceInfo: { video_size: number; chunk_size: number; total_chunk_count: number },
  privacy = 'PUBLIC_TO_EVERYONE',
) {
  const response = await setup.app.inject({
    method: 'POST',
    url: '/v2/post/publish/video/init/',
    headers: setup.auth,
    payload: {
      post_info: { title: 'hello', privacy_level: privacy },
      source_info: { source: 'FILE_UPLOAD', ...sourceInfo },
    },
  });
  const body = response.json();
  return {
    response,
    publishId: String(body.data.publish_id),
    uploadUrl: String(body.data.upload_url),
  };
}

/** The HTTP status of a creator_info query. */
async function creatorInfoStatus(setup: Awaited<ReturnType<typeof setUp>>): Promise<number> {
  const response = await setup.app.inject({
    method: 'POST',
    url: '/v2/post/publish/creator_info/query/',
    headers: setup.auth,
  });
  return response.statusCode;
}

/** The `data` of a status fetch. */
async function fetchStatus(setup: Awaited<ReturnType<typeof setUp>>, publishId: string) {
  const response = await setup.app.inject({
    method: 'POST',
    url: '/v2/post/publish/status/fetch/',
    headers: setup.auth,
    payload: { publish_id: publishId },
  });
  return response.json().data;
}

function uploadPath(uploadUrl: string): string {
  const url = new URL(uploadUrl);
  return `${url.pathname}${url.search}`;
}

describe('sandbox v2 API', () => {
  it('answers the flat token JSON and the v2 envelope with a log_id', async () => {
    const setup = await setUp();
    const info = await setup.app.inject({
      method: 'POST',
      url: '/v2/post/publish/creator_info/query/',
      headers: { ...setup.auth, 'content-type': 'application/json; charset=UTF-8' },
    });
    expect(info.statusCode).toBe(200);
    expect(info.json()).toMatchObject({
      data: {
        creator_username: 'creator_7',
        creator_avatar_url: expect.stringMatching(/^https:\/\/sandbox\.example\/avatar\//),
      },
      error: {
        code: 'ok',
        message: '',
        log_id: expect.stringMatching(/^20260301120000[0-9A-F]{20}$/),
      },
    });
  });

  // TikTok: per token and endpoint, a sliding one-minute window; the ledger lists each 429.
  it('counts a request for 60,000 ms exactly, does not count refused ones, and lists each 429', async () => {
    const setup = await setUp({ rateLimits: { creator_info: 2 } });
    const creatorInfo = () => creatorInfoStatus(setup);
    const first = setup.clock.now;
    expect(await creatorInfo()).toBe(200);
    setup.clock.now += 10_000;
    expect(await creatorInfo()).toBe(200);
    expect(await creatorInfo()).toBe(429);
    setup.clock.now = first + 59_999;
    expect(await creatorInfo()).toBe(429);
    // The first request leaves the window; the refused ones never entered it.
    setup.clock.now = first + 60_000;
    expect(await creatorInfo()).toBe(200);
    expect(await creatorInfo()).toBe(429);
    expect(setup.state.ledger().rate_limited).toEqual([
      { endpoint: 'creator_info', at: new Date(first + 10_000).toISOString() },
      { endpoint: 'creator_info', at: new Date(first + 59_999).toISOString() },
      { endpoint: 'creator_info', at: new Date(first + 60_000).toISOString() },
    ]);
  });

  // Tests that must see a window pass (the publisher's init pacing) shorten it rather than wait.
  it('counts over rateLimitWindowMs when given one', async () => {
    const setup = await setUp({ rateLimits: { creator_info: 1 }, rateLimitWindowMs: 5_000 });
    const creatorInfo = () => creatorInfoStatus(setup);
    const first = setup.clock.now;
    expect(await creatorInfo()).toBe(200);
    setup.clock.now = first + 4_999;
    expect(await creatorInfo()).toBe(429);
    setup.clock.now = first + 5_000;
    expect(await creatorInfo()).toBe(200);
  });

  it('refuses a missing bearer token with access_token_invalid', async () => {
    const setup = await setUp();
    const response = await setup.app.inject({ url: '/v2/user/info/?fields=open_id' });
    expect(response.statusCode).toBe(401);
    expect(response.json().error.code).toBe('access_token_invalid');
  });

  it('issues upload URLs under publicBaseUrl and accepts chunks in order only', async () => {
    const setup = await setUp();
    const video = Buffer.concat([MP4_HEADER, Buffer.alloc(12_000_000 - MP4_HEADER.length, 7)]);
    const { publishId, uploadUrl } = await init(setup, {
      video_size: video.length,
      chunk_size: 6_000_000,
      total_chunk_count: 2,
    });
    expect(uploadUrl).toMatch(
      /^https:\/\/sandbox\.example\/upload\/\?upload_id=\w+&upload_token=\w+$/,
    );
    const put = (range: string, payload: Buffer, headers: Record<string, string> = {}) =>
      setup.app.inject({
        method: 'PUT',
        url: uploadPath(uploadUrl),
        headers: { 'content-type': 'video/mp4', 'content-range': range, ...headers },
        payload,
      });
    const first = video.subarray(0, 6_000_000);
    const second = video.subarray(6_000_000);
    expect((await put('bytes 6000000-11999999/12000000', second)).statusCode).toBe(416);
    expect((await put('bytes 0-5999999/11999999', first)).statusCode).toBe(400);
    expect((await put('bytes 0-5999998/12000000', first.subarray(1))).statusCode).toBe(400);
    expect((await put('0-5999999/12000000', first)).statusCode).toBe(400);
    const wrongType = await put('bytes 0-5999999/12000000', first, {
      'content-type': 'application/octet-stream',
    });
    expect(wrongType.statusCode).toBe(400);
    expect(wrongType.json().error.code).toBe('invalid_params');
    expect((await put('bytes 0-5999999/12000000', first)).statusCode).toBe(206);
    expect((await put('bytes 0-5999999/12000000', first)).statusCode).toBe(416);
    expect((await put('bytes 6000000-11999999/12000000', second)).statusCode).toBe(201);
    expect((await put('bytes 6000000-11999999/12000000', second)).statusCode).toBe(416);

    const [post] = setup.state.ledger().posts;
    expect(post).toMatchObject({
      publish_id: publishId,
      received_bytes: 12_000_000,
      received_chunks: 2,
      sha256: createHash('sha256').update(video).digest('hex'),
      status: 'PROCESSING_UPLOAD',
    });
    // Processing is a timestamp comparison: advancing the clock is all it takes.
    setup.clock.now += 1_500;
    expect(setup.state.ledger().posts[0]?.status).toBe('PUBLISH_COMPLETE');
  });

  it('answers PUBLISH_COMPLETE without publicaly_available_post_id until moderation has passed', async () => {
    const setup = await setUp({ postIdDelayMs: 60_000 });
    const { publishId, uploadUrl } = await init(setup, {
      video_size: MP4_HEADER.length,
      chunk_size: MP4_HEADER.length,
      total_chunk_count: 1,
    });
    const put = await setup.app.inject({
      method: 'PUT',
      url: uploadPath(uploadUrl),
      headers: { 'content-type': 'video/mp4', 'content-range': 'bytes 0-11/12' },
      payload: MP4_HEADER,
    });
    expect(put.statusCode).toBe(201);
    const status = () => fetchStatus(setup, publishId);
    const listed = async () =>
      (
        await setup.app.inject({
          method: 'POST',
          url: '/v2/video/list/?fields=id',
          headers: setup.auth,
          payload: {},
        })
      ).json().data.videos;
    setup.clock.now += 1_500;
    expect(await status()).toEqual({
      status: 'PUBLISH_COMPLETE',
      publicaly_available_post_id: [],
      uploaded_bytes: 12,
    });
    expect(await listed()).toEqual([]);
    setup.clock.now += 59_999;
    expect((await status()).publicaly_available_post_id).toEqual([]);
    const postId = String(setup.state.posts.find(publishId)?.postId);
    // Its page, at TikTok's address shape, exists once the video is public, not before.
    const page = () => setup.app.inject({ url: `/@creator_7/video/${postId}` });
    expect((await page()).statusCode).toBe(404);
    setup.clock.now += 1;
    expect((await status()).publicaly_available_post_id).toEqual([postId]);
    expect(postId).toMatch(/^\d{19}$/);
    expect(await listed()).toEqual([{ id: postId }]);
    const shown = await page();
    expect(shown.statusCode).toBe(200);
    expect(shown.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(shown.body).toContain('@creator_7');
    expect(shown.body).toContain('hello');
    expect((await setup.app.inject({ url: `/@someone_else/video/${postId}` })).statusCode).toBe(
      404,
    );
  });

  it('pulls a PULL_FROM_URL video from a verified prefix only, reporting PROCESSING_DOWNLOAD meanwhile', async () => {
    // A loopback server standing in for the app's media host; it answers when told to.
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    const host = createServer((request, response) => {
      if (request.url === '/media/expired') {
        response.writeHead(403).end();
        return;
      }
      void released.then(() =>
        response.writeHead(200, { 'content-type': 'video/mp4' }).end(MP4_HEADER),
      );
    });
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
    const { port } = host.address() as AddressInfo;
    const prefix = `http://127.0.0.1:${port}/media/`;
    try {
      const setup = await setUp({ clients: [{ ...CLIENT, verifiedUrlPrefixes: [prefix] }] });
      const init = (videoUrl: string) =>
        setup.app.inject({
          method: 'POST',
          url: '/v2/post/publish/video/init/',
          headers: setup.auth,
          payload: {
            post_info: { title: 'pulled', privacy_level: 'SELF_ONLY' },
            source_info: { source: 'PULL_FROM_URL', video_url: videoUrl },
          },
        });
      const status = (publishId: string) => fetchStatus(setup, publishId);

      const unverified = await init('http://127.0.0.1:1/elsewhere.mp4');
      expect(unverified.statusCode).toBe(403);
      expect(unverified.json().error.code).toBe('url_ownership_unverified');

      const started = await init(`${prefix}video.mp4`);
      expect(started.statusCode).toBe(200);
      const { publish_id: publishId, ...rest } = started.json().data;
      expect(rest).toEqual({});
      expect(await status(publishId)).toMatchObject({ status: 'PROCESSING_DOWNLOAD' });
      release();
      const uploaded = await pollUntilResolved(async () => {
        const current = await status(publishId);
        return current.status === 'PROCESSING_DOWNLOAD' ? null : current;
      });
      expect(uploaded).toMatchObject({ status: 'PROCESSING_UPLOAD', uploaded_bytes: 12 });
      setup.clock.now += 1_500;
      expect(await status(publishId)).toMatchObject({ status: 'PUBLISH_COMPLETE' });
      expect(setup.state.ledger().posts[0]?.sha256).toBe(
        createHash('sha256').update(MP4_HEADER).digest('hex'),
      );

      // The app's link expired before TikTok came for it: the post fails, saying so.
      const expired = (await init(`${prefix}expired`)).json().data.publish_id;
      expect(
        await pollUntilResolved(async () => {
          const current = await status(expired);
          return current.status === 'PROCESSING_DOWNLOAD' ? null : current;
        }),
      ).toMatchObject({ status: 'FAILED', fail_reason: 'video_pull_failed' });
    } finally {
      release();
      await new Promise((resolve) => host.close(resolve));
    }
  });

  it('answers 404 for an unknown upload and 403 once the upload URL expired', async () => {
    const setup = await setUp();
    const { uploadUrl } = await init(setup, {
      video_size: 100,
      chunk_size: 100,
      total_chunk_count: 1,
    });
    const put = (url: string) =>
      setup.app.inject({
        method: 'PUT',
        url,
        headers: { 'content-type': 'video/mp4', 'content-range': 'bytes 0-99/100' },
        payload: Buffer.alloc(100),
      });
    expect(
      (await put(uploadPath(uploadUrl).replace(/upload_token=\w+/, 'upload_token=x'))).statusCode,
    ).toBe(404);
    setup.clock.now += 3_600_000;
    const expired = await put(uploadPath(uploadUrl));
    expect(expired.statusCode).toBe(403);
    expect(expired.json().error.code).toBe('upload_url_expired');
  });

  it('caps direct posts at 15 per creator per rolling day', async () => {
    // Tokens live two days here, so that the same token outlives the rolling day.
    const setup = await setUp({ rateLimits: { video_init: 100 }, accessTokenTtlSeconds: 172_800 });
    const small = { video_size: 100, chunk_size: 100, total_chunk_count: 1 };
    for (let index = 0; index < 15; index++) {
      expect((await init(setup, small, 'SELF_ONLY')).response.statusCode).toBe(200);
    }
    const capped = await init(setup, small, 'SELF_ONLY');
    expect(capped.response.statusCode).toBe(403);
    expect(capped.response.json().error.code).toBe('spam_risk_too_many_posts');
    setup.clock.now += 24 * 3_600_000;
    expect((await init(setup, small, 'SELF_ONLY')).response.statusCode).toBe(200);
  });

  it('caps one creator at their own daily count, in creator_info too, and may give no duration limit', async () => {
    const setup = await setUp({ rateLimits: { video_init: 100 }, accessTokenTtlSeconds: 172_800 });
    const creatorInfo = () =>
      setup.app.inject({
        method: 'POST',
        url: '/v2/post/publish/creator_info/query/',
        headers: setup.auth,
      });
    setup.state.control.setUserFlags(
      { username: 'creator_7' },
      { maxDirectPostsPerDay: 2, maxVideoPostDurationSec: null },
    );
    const info = (await creatorInfo()).json();
    expect(info.error.code).toBe('ok');
    expect('max_video_post_duration_sec' in info.data).toBe(false);
    const small = { video_size: 100, chunk_size: 100, total_chunk_count: 1 };
    for (let index = 0; index < 2; index++) {
      expect((await init(setup, small, 'SELF_ONLY')).response.statusCode).toBe(200);
    }
    const capped = await init(setup, small, 'SELF_ONLY');
    expect(capped.response.statusCode).toBe(403);
    expect(capped.response.json().error.code).toBe('spam_risk_too_many_posts');
    // "Cannot post now" comes with HTTP 200 from creator_info.
    const refused = await creatorInfo();
    expect(refused.statusCode).toBe(200);
    expect(refused.json().error.code).toBe('spam_risk_too_many_posts');
    setup.state.control.setUserFlags({ username: 'creator_7' }, { maxDirectPostsPerDay: null });
    expect((await init(setup, small, 'SELF_ONLY')).response.statusCode).toBe(200);
  });

  it('refuses titles over 2200 characters and non-SELF_ONLY posts from unaudited apps', async () => {
    const setup = await setUp({ clients: [{ ...CLIENT, unaudited: true }] });
    const long = await setup.app.inject({
      method: 'POST',
      url: '/v2/post/publish/video/init/',
      headers: setup.auth,
      payload: {
        post_info: { title: 'x'.repeat(2201), privacy_level: 'SELF_ONLY' },
        source_info: {
          source: 'FILE_UPLOAD',
          video_size: 100,
          chunk_size: 100,
          total_chunk_count: 1,
        },
      },
    });
    expect(long.statusCode).toBe(400);
    expect(long.json().error).toMatchObject({
      code: 'invalid_params',
      message: expect.stringMatching(/title/),
    });
    const unaudited = await init(setup, { video_size: 100, chunk_size: 100, total_chunk_count: 1 });
    expect(unaudited.response.statusCode).toBe(403);
    expect(unaudited.response.json().error.code).toBe(
      'unaudited_client_can_only_post_to_private_accounts',
    );
  });

  // Issue 12: content-sharing-guidelines, 'Direct Post API': unaudited apps post SELF_ONLY to
  // private accounts only, and at most 5 users may post through them in 24 hours.
  it('holds unaudited apps to private accounts and 5 posting users per 24 h', async () => {
    const setup = await setUp({
      clients: [{ ...CLIENT, unaudited: true }],
      rateLimits: { video_init: 100 },
    });
    const one = { video_size: 100, chunk_size: 100, total_chunk_count: 1 };
    /** A connected creator of the same app: its own token. */
    async function creator(username: string, privateAccount = true) {
      setup.state.control.setUserFlags({ username }, { privateAccount });
      const token = await connect(setup.app, setup.state, username, [
        'user.info.basic',
        'video.publish',
      ]);
      const auth = { authorization: `Bearer ${token}` };
      return {
        creatorInfo: () =>
          setup.app.inject({
            method: 'POST',
            url: '/v2/post/publish/creator_info/query/',
            headers: auth,
          }),
        init: async (privacy: string) => (await init({ ...setup, auth }, one, privacy)).response,
      };
    }

    // A public account cannot be posted to, even privately; a private one only as SELF_ONLY.
    const open = await creator('open_creator', false);
    expect((await open.creatorInfo()).json().error.code).toBe('ok');
    const publicRefused = await open.init('SELF_ONLY');
    expect(publicRefused.statusCode).toBe(403);
    expect(publicRefused.json().error.code).toBe(
      'unaudited_client_can_only_post_to_private_accounts',
    );
    const first = await creator('private_1');
    const followers = await first.init('FOLLOWER_OF_CREATOR');
    expect(followers.statusCode).toBe(403);
    expect(followers.json().error.code).toBe('unaudited_client_can_only_post_to_private_accounts');
    expect((await first.init('SELF_ONLY')).statusCode).toBe(200);

    // Five creators post; a sixth is refused (HTTP 200 from creator_info, 403 from init)...
    for (const name of ['private_2', 'private_3', 'private_4', 'private_5']) {
      expect((await (await creator(name)).init('SELF_ONLY')).statusCode).toBe(200);
    }
    const sixth = await creator('private_6');
    const capped = await sixth.creatorInfo();
    expect(capped.statusCode).toBe(200);
    expect(capped.json().error.code).toBe('reached_active_user_cap');
    const cappedInit = await sixth.init('SELF_ONLY');
    expect(cappedInit.statusCode).toBe(403);
    expect(cappedInit.json().error.code).toBe('reached_active_user_cap');
    // ...while the five keep posting, and the window slides after 24 hours.
    expect((await first.init('SELF_ONLY')).statusCode).toBe(200);
    setup.clock.now += 24 * 60 * 60 * 1000 + 1;
    const nextDay = await creator('private_6'); // a fresh token: the first one expired meanwhile
    expect((await nextDay.creatorInfo()).json().error.code).toBe('ok');
    expect((await nextDay.init('SELF_ONLY')).statusCode).toBe(200);
  });

  it('lists published public videos newest first, 20 at most, with a cursor', async () => {
    const setup = await setUp({
      rateLimits: { video_init: 100 },
      maxDirectPostsPerDay: 100,
      postIdDelayMs: 0,
    });
    const publishIds: string[] = [];
    for (let index = 0; index < 3; index++) {
      const { publishId, uploadUrl } = await init(setup, {
        video_size: MP4_HEADER.length,
        chunk_size: MP4_HEADER.length,
        total_chunk_count: 1,
      });
      await setup.app.inject({
        method: 'PUT',
        url: uploadPath(uploadUrl),
        headers: { 'content-type': 'video/mp4', 'content-range': `bytes 0-11/12` },
        payload: MP4_HEADER,
      });
      publishIds.push(publishId);
      setup.clock.now += 2_000;
    }
    const list = (body: object) =>
      setup.app.inject({
        method: 'POST',
        url: '/v2/video/list/?fields=id,create_time,title',
        headers: setup.auth,
        payload: body,
      });
    const firstPage = (await list({ max_count: 2 })).json().data;
    const postIds = setup.state.ledger().posts.map((post) => post.post_ids[0]);
    expect(firstPage.videos.map((video: { id: string }) => video.id)).toEqual([
      postIds[2],
      postIds[1],
    ]);
    expect(firstPage.has_more).toBe(true);
    expect(Object.keys(firstPage.videos[0]).sort()).toEqual(['create_time', 'id', 'title']);
    const secondPage = (await list({ max_count: 2, cursor: firstPage.cursor })).json().data;
    expect(secondPage.videos.map((video: { id: string }) => video.id)).toEqual([postIds[0]]);
    expect(secondPage.has_more).toBe(false);
    expect((await list({ max_count: 21 })).statusCode).toBe(400);
  });
});

describe('sandbox ledger endpoint', () => {
  // Regression: GET /_ledger listed every user's accounts and posts to anyone who asked.
  it('does not exist unless the test tooling is enabled', async () => {
    const setup = await setUp();
    const response = await setup.app.inject({ url: '/_ledger' });
    expect(response.statusCode).toBe(404);
    expect(response.body).not.toContain('creator_7');
  });

  it('lists users, token fingerprints and posts when enabled', async () => {
    const setup = await setUp({ enableControl: true });
    const response = await setup.app.inject({ url: '/_ledger' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.json()).toMatchObject({
      users: [expect.objectContaining({ username: 'creator_7' })],
    });
  });
});

describe('sandbox fault control endpoint', () => {
  it('does not exist unless enabled', async () => {
    const setup = await setUp();
    const response = await setup.app.inject({
      method: 'POST',
      url: '/_control/faults',
      payload: { action: 'reset' },
    });
    expect(response.statusCode).toBe(404);
  });

  it('applies faults sent as JSON', async () => {
    const setup = await setUp({ enableControl: true });
    const control = await setup.app.inject({
      method: 'POST',
      url: '/_control/faults',
      payload: [
        {
          action: 'fail_next',
          endpoint: 'user_info',
          failure: { type: 'error_body', code: 'internal_error' },
          count: 2,
        },
        {
          action: 'user_flags',
          user: { username: 'creator_7' },
          cannot_post: 'reached_active_user_cap',
        },
      ],
    });
    expect(control.json()).toEqual({ ok: true, applied: 2 });
    for (let attempt = 0; attempt < 2; attempt++) {
      const failed = await setup.app.inject({
        url: '/v2/user/info/?fields=open_id',
        headers: setup.auth,
      });
      expect(failed.statusCode).toBe(200);
      expect(failed.json().error.code).toBe('internal_error');
    }
    const ok = await setup.app.inject({
      url: '/v2/user/info/?fields=open_id',
      headers: setup.auth,
    });
    expect(ok.json().error.code).toBe('ok');
    const blocked = await setup.app.inject({
      method: 'POST',
      url: '/v2/post/publish/creator_info/query/',
      headers: setup.auth,
    });
    expect(blocked.statusCode).toBe(200);
    expect(blocked.json().error.code).toBe('reached_active_user_cap');

    const bad = await setup.app.inject({
      method: 'POST',
      url: '/_control/faults',
      payload: { action: 'fail_next', endpoint: 'nope' },
    });
    expect(bad.statusCode).toBe(400);
    const missing = await setup.app.inject({
      method: 'POST',
      url: '/_control/faults',
      payload: { action: 'fail_post', publish_id: 'v_pub_file~v2-1.1', fail_reason: 'internal' },
    });
    expect(missing.statusCode).toBe(404);
  });
});

/** Calls `read` until it gives a value (not null), for at most 5 s. */
async function pollUntilResolved<TValue>(read: () => Promise<TValue | null>): Promise<TValue> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const value = await read();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error('no answer within 5 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
