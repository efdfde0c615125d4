import { afterEach, describe, expect, it } from 'vitest';
import type { ChaosSettings } from './chaos.ts';
import { startSandboxServer, type SandboxServer } from './server.ts';

const CLIENT = { clientKey: 'ck', clientSecret: 'cs', redirectUris: ['https://app.example/cb'] };

const servers: SandboxServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.state.control.stopChaos();
    await server.close();
  }
});

/** A sandbox on a real port (a dropped connection needs a socket) and a user's access token. */
async function start(
  chaosFromStart?: ChaosSettings,
): Promise<{ server: SandboxServer; accessToken: string }> {
  const server = await startSandboxServer({
    clients: [CLIENT],
    rateLimits: { creator_info: 1000 },
  });
  servers.push(server);
  if (chaosFromStart !== undefined) server.state.control.startChaos(chaosFromStart);
  const code = server.state.oauth.issueCode({
    clientKey: 'ck',
    redirectUri: 'https://app.example/cb',
    username: 'chaos_creator',
    scopes: ['user.info.basic', 'video.publish'],
    codeChallenge: null,
  });
  const response = await fetch(`${server.baseUrl}/v2/oauth/token/`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      client_key: 'ck',
      client_secret: 'cs',
      code,
      grant_type: 'authorization_code',
      redirect_uri: 'https://app.example/cb',
    }).toString(),
  });
  const body: unknown = await response.json();
  if (typeof body !== 'object' || body === null || !('access_token' in body)) {
    throw new Error('no access token');
  }
  return { server, accessToken: String(body.access_token) };
}

/** What a client sees for each of `count` creator_info calls: an HTTP status or 'dropped'. */
async function outcomes(
  server: SandboxServer,
  accessToken: string,
  count: number,
): Promise<(number | 'dropped')[]> {
  const seen: (number | 'dropped')[] = [];
  for (let index = 0; index < count; index++) {
    try {
      const response = await fetch(`${server.baseUrl}/v2/post/publish/creator_info/query/`, {
        method: 'POST',
        headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
      });
      const body: unknown = await response.json();
      const code =
        typeof body === 'object' && body !== null && 'error' in body ? body.error : undefined;
      expect(code, 'every answer keeps TikTok envelope').toMatchObject({
        log_id: expect.any(String),
      });
      seen.push(response.status);
    } catch {
      seen.push('dropped');
    }
  }
  return seen;
}

const settings: ChaosSettings = {
  seed: 42,
  serverErrorRate: 0.25,
  rateLimitRate: 0.25,
  timeoutRate: 0.2,
  timeoutMs: 20,
};

describe('sandbox chaos', () => {
  it('injects seeded 5xx, 429 and dropped requests, and records each one', async () => {
    const { server, accessToken } = await start();
    server.state.control.startChaos(settings);
    const seen = await outcomes(server, accessToken, 60);

    const injected = server.state.control.injectedFaults();
    expect(seen.filter((status) => status === 'dropped')).toHaveLength(
      injected.filter((fault) => fault.kind === 'timeout').length,
    );
    expect(seen.filter((status) => status === 429)).toHaveLength(
      injected.filter((fault) => fault.kind === 'rate_limit').length,
    );
    expect(seen.filter((status) => typeof status === 'number' && status >= 500)).toHaveLength(
      injected.filter((fault) => fault.kind === 'server_error').length,
    );
    expect(seen.filter((status) => status === 200).length).toBeGreaterThan(0);
    for (const kind of ['timeout', 'rate_limit', 'server_error'] as const) {
      expect(
        injected.some((fault) => fault.kind === kind),
        kind,
      ).toBe(true);
    }
    expect(injected.every((fault) => fault.tokenFingerprint?.length === 12)).toBe(true);

    // The same seed replays the same faults; stopping chaos stops them.
    const replay = await start();
    replay.server.state.control.startChaos(settings);
    expect(await outcomes(replay.server, replay.accessToken, 60)).toEqual(seen);
    replay.server.state.control.stopChaos();
    expect(new Set(await outcomes(replay.server, replay.accessToken, 10))).toEqual(new Set([200]));
  });

  it('leaves the OAuth endpoints alone unless they are named', async () => {
    // The token exchange inside start() would fail if chaos touched it.
    const { server } = await start({ seed: 1, serverErrorRate: 1 });
    expect(server.state.control.injectedFaults()).toHaveLength(0);
  });

  it('is set per run through the control endpoint', async () => {
    const server = await startSandboxServer({ clients: [CLIENT], enableControl: true });
    servers.push(server);
    const post = (body: unknown) =>
      fetch(`${server.baseUrl}/_control/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect(
      (await post({ action: 'chaos', seed: 7, server_error_rate: 0.7, rate_limit_rate: 0.7 }))
        .status,
    ).toBe(400);
    expect(
      (await post({ action: 'chaos', seed: 7, rate_limit_rate: 1, endpoints: ['user_info'] }))
        .status,
    ).toBe(200);
    const response = await fetch(`${server.baseUrl}/v2/user/info/?fields=open_id`);
    expect(response.status).toBe(429);
    expect((await post({ action: 'stop_chaos' })).status).toBe(200);
    expect((await fetch(`${server.baseUrl}/v2/user/info/?fields=open_id`)).status).toBe(401);
  });
});
