import { MockAgent } from 'undici';
import { describe, expect, it } from 'vitest';
import { createTikTokClient } from './tiktok-client.ts';
import { TikTokApiError, classifyTikTokError } from './tiktok-error.ts';
import { parseJsonKeepingBigIntegers } from './tiktok-schemas.ts';

describe('classifyTikTokError', () => {
  it.each([
    ['access_token_invalid', 401, 'auth'],
    ['rate_limit_exceeded', 429, 'rate_limit'],
    ['some_new_code', 429, 'rate_limit'],
    ['internal_error', 500, 'transient'],
    ['internal_error', 200, 'transient'],
    ['server_error', 200, 'transient'],
    ['temporarily_unavailable', 503, 'transient'],
    ['invalid_response', 502, 'transient'],
    ['network_error', null, 'transient'],
    ['timeout', null, 'transient'],
    ['spam_risk_too_many_posts', 200, 'cannot_post_now'],
    ['spam_risk_user_banned_from_posting', 403, 'cannot_post_now'],
    ['spam_risk_too_many_pending_share', 403, 'cannot_post_now'],
    ['reached_active_user_cap', 403, 'cannot_post_now'],
    ['scope_not_authorized', 401, 'permanent'],
    ['invalid_grant', 400, 'permanent'],
    ['privacy_level_option_mismatch', 403, 'permanent'],
    ['invalid_response', 200, 'permanent'],
    ['upload_http_416', 416, 'permanent'],
  ] as const)('%s with HTTP %s is %s', (code, status, kind) => {
    expect(classifyTikTokError(code, status)).toBe(kind);
  });

  it('never puts more than the operation, code and description in the message', () => {
    const error = new TikTokApiError({
      operation: 'video_init',
      code: 'invalid_params',
      httpStatus: 400,
      logId: '20260101000000ABCDEF',
      description: 'chunk_size must be between 5 MB and 64 MB',
    });
    expect(error.message).toBe(
      'TikTok video_init failed: invalid_params (HTTP 400): chunk_size must be between 5 MB and 64 MB',
    );
    expect(error.logId).toBe('20260101000000ABCDEF');
  });
});

describe('parseJsonKeepingBigIntegers', () => {
  it('keeps 19-digit ids exact by turning them into strings', () => {
    const parsed = parseJsonKeepingBigIntegers(
      '{"ids":[7318563485761234567, 12],"nested":{"id":-7318563485761234567},"n":1.5e3}',
    );
    expect(parsed).toEqual({
      ids: ['7318563485761234567', 12],
      nested: { id: '-7318563485761234567' },
      n: 1500,
    });
  });

  it('leaves digits inside strings and decimals alone', () => {
    expect(
      parseJsonKeepingBigIntegers(
        '{"a":"x 12345678901234567890 \\" 12345678901234567890","b":0.1234567890123456}',
      ),
    ).toEqual({ a: 'x 12345678901234567890 " 12345678901234567890', b: 0.1234567890123456 });
  });
});

// Real TikTok sends post ids as JSON numbers beyond 2^53; the sandbox sends strings. This shape
// cannot come from the sandbox, so a canned response (undici's MockAgent, no network) stands in
// for TikTok here.
describe('client response parsing', () => {
  /** Every request to TikTok's API origin answered `status` and `body`, or held until aborted. */
  const cannedAgent = (answer: { status: number; body: string } | 'never') => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    const anything = { path: () => true, method: () => true };
    const intercepted = agent.get('https://api.invalid').intercept(anything);
    if (answer === 'never') intercepted.reply(200, '').delay(3_600_000).persist();
    else intercepted.reply(answer.status, answer.body).persist();
    return agent;
  };
  const clientOver = (dispatcher: MockAgent) =>
    createTikTokClient({
      clientKey: 'k',
      clientSecret: 's',
      authBase: 'https://auth.invalid',
      apiBase: 'https://api.invalid',
      dispatcher,
    });
  const cannedClient = (status: number, body: string) => clientOver(cannedAgent({ status, body }));

  /** A status fetch whose answer's `data` is that JSON. */
  const statusAnswering = (data: string) =>
    cannedClient(
      200,
      `{"data":${data},"error":{"code":"ok","message":"","log_id":"x"}}`,
    ).fetchPostStatus('act.x', 'v_pub_file~v2-1.1');

  it('keeps numeric post ids exact', async () => {
    await expect(
      statusAnswering(
        '{"status":"PUBLISH_COMPLETE","publicaly_available_post_id":[7318563485761234567],"uploaded_bytes":1000}',
      ),
    ).resolves.toEqual({
      status: 'PUBLISH_COMPLETE',
      reportedStatus: 'PUBLISH_COMPLETE',
      failReason: null,
      publicPostIds: ['7318563485761234567'],
      uploadedBytes: 1000,
    });
  });

  it('reads a status value TikTok added later as UNKNOWN, keeping its words', async () => {
    await expect(statusAnswering('{"status":"PROCESSING_MODERATION"}')).resolves.toEqual({
      status: 'UNKNOWN',
      reportedStatus: 'PROCESSING_MODERATION',
      failReason: null,
      publicPostIds: [],
      uploadedBytes: null,
    });
  });

  // TikTok documents token_type: "Bearer", but some answers leave it out.
  it('accepts a token answer without token_type', async () => {
    const client = cannedClient(
      200,
      '{"access_token":"act.x","expires_in":86400,"open_id":"o","refresh_expires_in":31536000,"refresh_token":"rft.x","scope":"user.info.basic,video.publish"}',
    );
    await expect(client.refreshToken('rft.old')).resolves.toMatchObject({
      accessToken: 'act.x',
      refreshToken: 'rft.x',
      scopes: ['user.info.basic', 'video.publish'],
      tokenType: null,
    });
  });

  it('turns a non-JSON error page into invalid_response, classified by its status', async () => {
    const error: unknown = await cannedClient(502, '<html>Bad gateway</html>')
      .queryCreatorInfo('act.x')
      .catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(TikTokApiError);
    expect(error).toMatchObject({ code: 'invalid_response', httpStatus: 502, kind: 'transient' });
  });

  it('refuses a success envelope whose data breaks the contract', async () => {
    const error: unknown = await cannedClient(
      200,
      '{"data":{"publish_id":42},"error":{"code":"ok","message":"","log_id":"x"}}',
    )
      .initInboxPost('act.x', { videoSize: 10, chunkSize: 10, totalChunkCount: 1 })
      .catch((reason: unknown) => reason);
    expect(error).toMatchObject({ code: 'invalid_response', httpStatus: 200, kind: 'permanent' });
  });

  // A redirect would send the request, token and all, to an address TikTok's answer chose: the
  // client never follows one (undici's request does not), it is an answer it does not expect.
  it('never follows a redirect: an unexpected answer, nothing sent to its address', async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    agent
      .get('https://api.invalid')
      .intercept({ path: () => true, method: () => true })
      .reply(302, '', { headers: { location: 'https://elsewhere.invalid/steal' } });
    agent.enableCallHistory();
    const error: unknown = await clientOver(agent)
      .queryCreatorInfo('act.x')
      .catch((reason: unknown) => reason);
    expect(error).toMatchObject({ code: 'invalid_response', httpStatus: 302 });
    const origins = agent
      .getCallHistory()
      ?.calls()
      .map((call) => call.origin);
    expect(origins).toEqual(['https://api.invalid']);
  });

  it('lets a caller abort without turning it into a TikTok error', async () => {
    const controller = new AbortController();
    const client = clientOver(cannedAgent('never'));
    const pending = client.queryCreatorInfo('act.x', { signal: controller.signal });
    controller.abort(new Error('shutting down'));
    await expect(pending).rejects.toThrow('shutting down');
  });
});
