import { Readable } from 'node:stream';
import { planChunks } from '@cadence/shared/tiktok-chunks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectAccount,
  fakeMp4,
  pollUntil,
  sha256,
  startSandboxKit,
  type SandboxKit,
} from './sandbox-test-kit.ts';
import type { TikTokClient } from './tiktok-client.ts';
import type { DirectPostInfo } from './tiktok-publish-api.ts';
import { TikTokApiError } from './tiktok-error.ts';

async function apiError(promise: Promise<unknown>): Promise<TikTokApiError> {
  const error: unknown = await promise.then(
    () => new Error('expected a TikTokApiError, the call succeeded'),
    (reason: unknown) => reason,
  );
  if (!(error instanceof TikTokApiError)) throw error;
  return error;
}

const SELF_ONLY: DirectPostInfo = { title: 'Sandbox test #cadence', privacyLevel: 'SELF_ONLY' };
const SMALL = { videoSize: 1_000, chunkSize: 1_000, totalChunkCount: 1 };

/** Uploads `video` chunk by chunk following the plan; returns each chunk's answer. */
async function uploadAll(
  client: TikTokClient,
  uploadUrl: string,
  video: Buffer,
  chunkSize: number,
) {
  const plan = planChunks(video.length, chunkSize);
  const answers: string[] = [];
  for (const chunk of plan.chunks) {
    answers.push(
      await client.uploadChunk(uploadUrl, {
        body: video.subarray(chunk.first, chunk.last + 1),
        first: chunk.first,
        last: chunk.last,
        total: video.length,
        contentType: 'video/mp4',
      }),
    );
  }
  return { plan, answers };
}

describe('TikTok client against the sandbox: Content Posting', () => {
  let kit: SandboxKit;

  beforeAll(async () => {
    kit = await startSandboxKit({ processingMs: 300, postIdDelayMs: 0 });
  });
  afterAll(async () => {
    await kit.sandbox.close();
  });

  it('reads creator_info with the privacy options of a public account', async () => {
    const { tokens } = await connectAccount(kit, { username: 'info_creator' });
    const info = await kit.client.queryCreatorInfo(tokens.accessToken);
    expect(info).toMatchObject({
      creatorUsername: 'info_creator',
      creatorNickname: 'Info Creator',
      privacyLevelOptions: ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'SELF_ONLY'],
      commentDisabled: false,
      maxVideoPostDurationSec: 600,
    });
    kit.sandbox.state.control.setUserFlags(
      { openId: tokens.openId },
      { privateAccount: true, duetDisabled: true },
    );
    const privateInfo = await kit.client.queryCreatorInfo(tokens.accessToken);
    expect(privateInfo.privacyLevelOptions).toEqual([
      'FOLLOWER_OF_CREATOR',
      'MUTUAL_FOLLOW_FRIENDS',
      'SELF_ONLY',
    ]);
    expect(privateInfo.duetDisabled).toBe(true);
  });

  it('publishes a 12 MB video in two chunks: bytes arrive intact, status reaches PUBLISH_COMPLETE', async () => {
    const { tokens } = await connectAccount(kit, { username: 'big_uploader' });
    const video = fakeMp4(12_345_678);
    const plan = planChunks(video.length, 6_000_000);
    expect(plan.totalChunkCount).toBe(2);
    const { publishId, uploadUrl } = await kit.client.initDirectPost(tokens.accessToken, {
      postInfo: { title: 'Two chunks #cadence', privacyLevel: 'PUBLIC_TO_EVERYONE' },
      videoSize: video.length,
      chunkSize: plan.chunkSize,
      totalChunkCount: plan.totalChunkCount,
    });
    expect(publishId).toMatch(/^v_pub_file~v2-1\.\d{19}$/);
    expect(uploadUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/sandbox\/tiktok\/upload\/\?upload_id=/);

    const { answers } = await uploadAll(kit.client, uploadUrl, video, 6_000_000);
    expect(answers).toEqual(['partial', 'complete']);

    const processing = await kit.client.fetchPostStatus(tokens.accessToken, publishId);
    expect(processing).toMatchObject({ status: 'PROCESSING_UPLOAD', uploadedBytes: video.length });
    const done = await pollUntil(
      () => kit.client.fetchPostStatus(tokens.accessToken, publishId),
      (status) => status.status !== 'PROCESSING_UPLOAD',
    );
    expect(done.status).toBe('PUBLISH_COMPLETE');
    expect(done.failReason).toBeNull();
    expect(done.publicPostIds).toHaveLength(1);
    expect(done.publicPostIds[0]).toMatch(/^\d{19}$/);

    const ledgerPost = kit.sandbox.state
      .ledger()
      .posts.find((post) => post.publish_id === publishId);
    expect(ledgerPost).toMatchObject({
      open_id: tokens.openId,
      video_size: video.length,
      received_bytes: video.length,
      sha256: sha256(video),
      status: 'PUBLISH_COMPLETE',
      post_ids: done.publicPostIds,
    });
    expect(ledgerPost?.post_info?.title).toBe('Two chunks #cadence');

    const page = await kit.client.listVideos(tokens.accessToken, {
      fields: ['id', 'title', 'share_url', 'create_time'],
    });
    expect(page.videos).toEqual([
      expect.objectContaining({ id: done.publicPostIds[0], title: 'Two chunks #cadence' }),
    ]);
    expect(page.hasMore).toBe(false);
  });

  it('streams a chunk from a Readable without buffering it', async () => {
    const { tokens } = await connectAccount(kit, { username: 'streamer' });
    const video = fakeMp4(300_000);
    const { publishId, uploadUrl } = await kit.client.initDirectPost(tokens.accessToken, {
      postInfo: SELF_ONLY,
      videoSize: video.length,
      chunkSize: video.length,
      totalChunkCount: 1,
    });
    const pieces = [video.subarray(0, 100_000), video.subarray(100_000)];
    await expect(
      kit.client.uploadChunk(uploadUrl, {
        body: Readable.from(pieces),
        first: 0,
        last: video.length - 1,
        total: video.length,
        contentType: 'video/mp4',
      }),
    ).resolves.toBe('complete');
    const done = await pollUntil(
      () => kit.client.fetchPostStatus(tokens.accessToken, publishId),
      (status) => status.status !== 'PROCESSING_UPLOAD',
    );
    // SELF_ONLY posts publish but have no publicly available id.
    expect(done).toMatchObject({ status: 'PUBLISH_COMPLETE', publicPostIds: [] });
    const ledgerPost = kit.sandbox.state
      .ledger()
      .posts.find((post) => post.publish_id === publishId);
    expect(ledgerPost?.sha256).toBe(sha256(video));
  });

  it('answers 416 to an out-of-order chunk, then accepts the right one', async () => {
    const { tokens } = await connectAccount(kit, { username: 'out_of_order' });
    const video = fakeMp4(11_000_000);
    const plan = planChunks(video.length, 5_500_000);
    const { uploadUrl } = await kit.client.initDirectPost(tokens.accessToken, {
      postInfo: SELF_ONLY,
      videoSize: video.length,
      chunkSize: plan.chunkSize,
      totalChunkCount: plan.totalChunkCount,
    });
    const [first, second] = plan.chunks;
    if (first === undefined || second === undefined) throw new Error('expected two chunks');
    const send = (chunk: typeof first) =>
      kit.client.uploadChunk(uploadUrl, {
        body: video.subarray(chunk.first, chunk.last + 1),
        first: chunk.first,
        last: chunk.last,
        total: video.length,
        contentType: 'video/mp4',
      });
    const error = await apiError(send(second));
    expect(error).toMatchObject({
      httpStatus: 416,
      code: 'range_not_satisfiable',
      kind: 'permanent',
    });
    await expect(send(first)).resolves.toBe('partial');
    await expect(send(second)).resolves.toBe('complete');
  });

  it('refuses a privacy level creator_info did not offer', async () => {
    const { tokens } = await connectAccount(kit, { username: 'wrong_privacy' });
    kit.sandbox.state.control.setUserFlags({ username: 'wrong_privacy' }, { privateAccount: true });
    const error = await apiError(
      kit.client.initDirectPost(tokens.accessToken, {
        postInfo: { title: '', privacyLevel: 'PUBLIC_TO_EVERYONE' },
        ...SMALL,
      }),
    );
    expect(error).toMatchObject({
      code: 'privacy_level_option_mismatch',
      httpStatus: 403,
      kind: 'permanent',
    });
  });

  it('refuses a ceil-based chunk plan as invalid_params', async () => {
    const { tokens } = await connectAccount(kit, { username: 'ceil_counter' });
    const error = await apiError(
      kit.client.initDirectPost(tokens.accessToken, {
        postInfo: SELF_ONLY,
        videoSize: 50_000_123,
        chunkSize: 10_000_000,
        totalChunkCount: 6,
      }),
    );
    expect(error).toMatchObject({ code: 'invalid_params', httpStatus: 400, kind: 'permanent' });
  });

  it('reports "cannot post now" from creator_info with HTTP 200', async () => {
    const { tokens } = await connectAccount(kit, { username: 'too_busy' });
    kit.sandbox.state.control.setUserFlags(
      { username: 'too_busy' },
      { cannotPost: 'spam_risk_too_many_posts' },
    );
    const error = await apiError(kit.client.queryCreatorInfo(tokens.accessToken));
    expect(error).toMatchObject({
      code: 'spam_risk_too_many_posts',
      httpStatus: 200,
      kind: 'cannot_post_now',
    });
    const init = await apiError(
      kit.client.initDirectPost(tokens.accessToken, { postInfo: SELF_ONLY, ...SMALL }),
    );
    expect(init).toMatchObject({ code: 'spam_risk_too_many_posts', kind: 'cannot_post_now' });
  });

  it('rate-limits video init to 6 per minute per token with a 429', async () => {
    const { tokens } = await connectAccount(kit, { username: 'hasty_poster' });
    for (let attempt = 0; attempt < 6; attempt++) {
      await kit.client.initDirectPost(tokens.accessToken, { postInfo: SELF_ONLY, ...SMALL });
    }
    const error = await apiError(
      kit.client.initDirectPost(tokens.accessToken, { postInfo: SELF_ONLY, ...SMALL }),
    );
    expect(error).toMatchObject({
      code: 'rate_limit_exceeded',
      httpStatus: 429,
      kind: 'rate_limit',
    });
    // Another token of the same app has its own budget.
    const other = await connectAccount(kit, { username: 'patient_poster' });
    await expect(
      kit.client.initDirectPost(other.tokens.accessToken, { postInfo: SELF_ONLY, ...SMALL }),
    ).resolves.toHaveProperty('publishId');
  });

  it('classifies an injected 5xx as transient; the retry succeeds', async () => {
    const { tokens } = await connectAccount(kit, { username: 'unlucky' });
    kit.sandbox.state.control.failNext('creator_info', { type: 'http_error', status: 500 });
    const error = await apiError(kit.client.queryCreatorInfo(tokens.accessToken));
    expect(error).toMatchObject({ code: 'internal_error', httpStatus: 500, kind: 'transient' });
    await expect(kit.client.queryCreatorInfo(tokens.accessToken)).resolves.toHaveProperty(
      'creatorUsername',
      'unlucky',
    );
  });

  it('retries a chunk that failed with a 5xx', async () => {
    const { tokens } = await connectAccount(kit, { username: 'chunk_retrier' });
    const video = fakeMp4(2_000);
    const { publishId, uploadUrl } = await kit.client.initDirectPost(tokens.accessToken, {
      postInfo: SELF_ONLY,
      videoSize: video.length,
      chunkSize: video.length,
      totalChunkCount: 1,
    });
    kit.sandbox.state.control.failNext('upload', { type: 'http_error', status: 502 });
    const chunk = {
      body: video,
      first: 0,
      last: video.length - 1,
      total: video.length,
      contentType: 'video/mp4' as const,
    };
    const error = await apiError(kit.client.uploadChunk(uploadUrl, chunk));
    expect(error).toMatchObject({ httpStatus: 502, kind: 'transient' });
    await expect(kit.client.uploadChunk(uploadUrl, chunk)).resolves.toBe('complete');
    const ledgerPost = kit.sandbox.state
      .ledger()
      .posts.find((post) => post.publish_id === publishId);
    expect(ledgerPost?.sha256).toBe(sha256(video));
  });

  it('treats a token expired on TikTok side as an auth error', async () => {
    const { tokens } = await connectAccount(kit, { username: 'expired_now' });
    kit.sandbox.state.control.expireAccessToken(tokens.accessToken);
    const error = await apiError(kit.client.queryCreatorInfo(tokens.accessToken));
    expect(error).toMatchObject({ code: 'access_token_invalid', httpStatus: 401, kind: 'auth' });
  });

  it('reports FAILED with the reason when TikTok rejects the post', async () => {
    const { tokens } = await connectAccount(kit, { username: 'rejected' });
    const { publishId } = await kit.client.initDirectPost(tokens.accessToken, {
      postInfo: SELF_ONLY,
      ...SMALL,
    });
    kit.sandbox.state.control.failPost(publishId, 'duration_check_failed');
    await expect(kit.client.fetchPostStatus(tokens.accessToken, publishId)).resolves.toMatchObject({
      status: 'FAILED',
      failReason: 'duration_check_failed',
      publicPostIds: [],
    });
  });

  it('fails the format check when the uploaded bytes are not a video', async () => {
    const { tokens } = await connectAccount(kit, { username: 'wrong_bytes' });
    const notVideo = Buffer.from('{"this":"is json, not a video"}'.padEnd(1_000, ' '));
    const { publishId, uploadUrl } = await kit.client.initDirectPost(tokens.accessToken, {
      postInfo: SELF_ONLY,
      ...SMALL,
    });
    await kit.client.uploadChunk(uploadUrl, {
      body: notVideo,
      first: 0,
      last: 999,
      total: 1_000,
      contentType: 'video/mp4',
    });
    const done = await pollUntil(
      () => kit.client.fetchPostStatus(tokens.accessToken, publishId),
      (status) => status.status !== 'PROCESSING_UPLOAD',
    );
    expect(done).toMatchObject({ status: 'FAILED', failReason: 'file_format_check_failed' });
  });

  it('reports a network failure and a timeout as transient', async () => {
    const { tokens } = await connectAccount(kit, { username: 'slowpoke' });
    kit.sandbox.state.control.setLatency(500);
    try {
      const timeout = await apiError(
        kit.clientWith({ timeoutMs: 100 }).queryCreatorInfo(tokens.accessToken),
      );
      expect(timeout).toMatchObject({ code: 'timeout', httpStatus: null, kind: 'transient' });
    } finally {
      kit.sandbox.state.control.setLatency(0);
    }
    const closedPort = await apiError(
      kit.client.uploadChunk('http://127.0.0.1:1/upload/', {
        body: Buffer.alloc(1),
        first: 0,
        last: 0,
        total: 1,
        contentType: 'video/mp4',
      }),
    );
    expect(closedPort).toMatchObject({
      code: 'network_error',
      httpStatus: null,
      kind: 'transient',
    });
  });
});
