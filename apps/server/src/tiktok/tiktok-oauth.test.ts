import { tokenFingerprint } from '@cadence/tiktok-sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pkceChallengeFor } from './pkce.ts';
import {
  CLIENT_KEY,
  REDIRECT_URI,
  connectAccount,
  consent,
  startSandboxKit,
  type SandboxKit,
} from './sandbox-test-kit.ts';
import { TikTokApiError } from './tiktok-error.ts';

/** Runs `promise`, expecting a TikTokApiError, and returns it for assertions. */
async function apiError(promise: Promise<unknown>): Promise<TikTokApiError> {
  const error: unknown = await promise.then(
    () => new Error('expected a TikTokApiError, the call succeeded'),
    (reason: unknown) => reason,
  );
  if (!(error instanceof TikTokApiError)) throw error;
  return error;
}

describe('TikTok client against the sandbox: Login Kit', () => {
  let kit: SandboxKit;
  let clock = Date.now();

  beforeAll(async () => {
    kit = await startSandboxKit({ now: () => clock });
  });
  afterAll(async () => {
    await kit.sandbox.close();
  });

  it('creates PKCE pairs TikTok accepts: unreserved verifier, hex SHA-256 challenge', () => {
    const pair = kit.client.createPkcePair();
    expect(pair.codeVerifier).toMatch(/^[A-Za-z0-9._~-]{43,128}$/);
    expect(pair.codeChallenge).toMatch(/^[0-9a-f]{64}$/);
    expect(pair.codeChallenge).toBe(pkceChallengeFor(pair.codeVerifier));
    expect(kit.client.createPkcePair().codeVerifier).not.toBe(pair.codeVerifier);
  });

  it('builds an authorize URL with comma-separated scopes under the configured base', () => {
    const url = new URL(
      kit.client.buildAuthorizeUrl({
        redirectUri: REDIRECT_URI,
        state: 's1',
        codeChallenge: 'c'.repeat(64),
        scopes: ['user.info.basic', 'video.publish'],
      }),
    );
    expect(url.pathname).toBe('/sandbox/tiktok/v2/auth/authorize/');
    expect(url.searchParams.get('client_key')).toBe(CLIENT_KEY);
    expect(url.searchParams.get('scope')).toBe('user.info.basic,video.publish');
    expect(url.searchParams.get('response_type')).toBe('code');
    expect(url.searchParams.get('redirect_uri')).toBe(REDIRECT_URI);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
  });

  it('completes the code flow with PKCE and returns a usable token set', async () => {
    const { tokens, outcome, state } = await connectAccount(kit, { username: 'creator_1001' });
    expect(outcome.state).toBe(state);
    expect(outcome.location.origin + outcome.location.pathname).toBe(
      'http://127.0.0.1:3999/api/tiktok/callback',
    );
    // The registered redirect_uri's own query survives.
    expect(outcome.location.searchParams.get('from')).toBe('contract');
    expect(tokens.tokenType).toBe('Bearer');
    expect(tokens.expiresIn).toBe(86_400);
    expect(tokens.refreshExpiresIn).toBe(31_536_000);
    expect(tokens.scopes).toEqual(outcome.scopes);
    expect(tokens.scopes).toContain('video.publish');
    const user = await kit.client.getUserInfo(tokens.accessToken, [
      'open_id',
      'display_name',
      'username',
      'avatar_url',
    ]);
    expect(user).toMatchObject({
      openId: tokens.openId,
      displayName: 'Creator 1001',
      username: 'creator_1001',
    });
    expect(user.avatarUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/sandbox\/tiktok\/avatar\//);
  });

  it('gives the same open_id when the same username connects again', async () => {
    const first = await connectAccount(kit, { username: 'same_person' });
    const second = await connectAccount(kit, { username: 'same_person' });
    const other = await connectAccount(kit, { username: 'someone_else' });
    expect(second.tokens.openId).toBe(first.tokens.openId);
    expect(other.tokens.openId).not.toBe(first.tokens.openId);
  });

  it('refuses to reuse an authorization code', async () => {
    const pkce = kit.client.createPkcePair();
    const outcome = await consent(
      kit.client.buildAuthorizeUrl({
        redirectUri: REDIRECT_URI,
        state: 'reuse',
        codeChallenge: pkce.codeChallenge,
        scopes: ['user.info.basic'],
      }),
      { username: 'code_reuser' },
    );
    const input = {
      code: outcome.code ?? '',
      redirectUri: REDIRECT_URI,
      codeVerifier: pkce.codeVerifier,
    };
    await kit.client.exchangeCode(input);
    const error = await apiError(kit.client.exchangeCode(input));
    expect(error).toMatchObject({ code: 'invalid_grant', httpStatus: 400, kind: 'permanent' });
    expect(error.logId).toMatch(/^\d{14}[0-9A-F]{20}$/);
  });

  it('refuses a wrong code_verifier and a redirect_uri that differs by one byte', async () => {
    const pkce = kit.client.createPkcePair();
    const url = kit.client.buildAuthorizeUrl({
      redirectUri: REDIRECT_URI,
      state: 'pkce',
      codeChallenge: pkce.codeChallenge,
      scopes: ['user.info.basic'],
    });
    const wrongVerifier = await consent(url, { username: 'pkce_tester' });
    const verifierError = await apiError(
      kit.client.exchangeCode({
        code: wrongVerifier.code ?? '',
        redirectUri: REDIRECT_URI,
        codeVerifier: kit.client.createPkcePair().codeVerifier,
      }),
    );
    expect(verifierError).toMatchObject({ code: 'invalid_grant', kind: 'permanent' });
    expect(verifierError.description).toMatch(/code_verifier/);

    const wrongRedirect = await consent(url, { username: 'pkce_tester' });
    const redirectError = await apiError(
      kit.client.exchangeCode({
        code: wrongRedirect.code ?? '',
        redirectUri: `${REDIRECT_URI}&`,
        codeVerifier: pkce.codeVerifier,
      }),
    );
    expect(redirectError).toMatchObject({ code: 'invalid_grant', httpStatus: 400 });
    expect(redirectError.description).toMatch(/redirect_uri/);
  });

  it('refuses a wrong client secret as invalid_client', async () => {
    const { tokens } = await connectAccount(kit, { username: 'secret_tester' });
    const error = await apiError(
      kit.clientWith({ clientSecret: 'not-the-secret' }).refreshToken(tokens.refreshToken),
    );
    expect(error).toMatchObject({ code: 'invalid_client', httpStatus: 401, kind: 'permanent' });
  });

  it('reports a denial on the redirect_uri without a code', async () => {
    const outcome = await consent(
      kit.client.buildAuthorizeUrl({
        redirectUri: REDIRECT_URI,
        state: 'deny-me',
        codeChallenge: kit.client.createPkcePair().codeChallenge,
        scopes: ['user.info.basic'],
      }),
      { username: 'denier', deny: true },
    );
    expect(outcome.code).toBeNull();
    expect(outcome.state).toBe('deny-me');
    expect(outcome.location.searchParams.get('error')).toBe('access_denied');
  });

  it('rotates refresh tokens: the new one works, the old one is rejected', async () => {
    const { tokens } = await connectAccount(kit, { username: 'rotator' });
    const refreshed = await kit.client.refreshToken(tokens.refreshToken);
    expect(refreshed.refreshToken).not.toBe(tokens.refreshToken);
    expect(refreshed.accessToken).not.toBe(tokens.accessToken);
    expect(refreshed.openId).toBe(tokens.openId);
    expect(refreshed.scopes).toEqual(tokens.scopes);
    const user = await kit.client.getUserInfo(refreshed.accessToken, ['open_id']);
    expect(user.openId).toBe(tokens.openId);

    const stale = await apiError(kit.client.refreshToken(tokens.refreshToken));
    expect(stale).toMatchObject({ code: 'invalid_grant', httpStatus: 400 });
    await expect(kit.client.refreshToken(refreshed.refreshToken)).resolves.toMatchObject({
      openId: tokens.openId,
    });
  });

  it('revokes: access and refresh tokens both stop working', async () => {
    const { tokens } = await connectAccount(kit, { username: 'revoker' });
    await kit.client.revokeToken(tokens.accessToken);
    const access = await apiError(kit.client.getUserInfo(tokens.accessToken, ['open_id']));
    expect(access).toMatchObject({ code: 'access_token_invalid', httpStatus: 401, kind: 'auth' });
    const refresh = await apiError(kit.client.refreshToken(tokens.refreshToken));
    expect(refresh.code).toBe('invalid_grant');
    // The ledger shows the revocation by fingerprint, never the token itself.
    const ledger = kit.sandbox.state.ledger();
    const entry = ledger.tokens.find(
      (token) => token.fingerprint === tokenFingerprint(tokens.accessToken),
    );
    expect(entry?.revoked_at).not.toBeNull();
    expect(JSON.stringify(ledger)).not.toContain(tokens.accessToken);
  });

  // TikTok: revoking "disconnects your app from the user's TikTok account" — every grant ends.
  it("revokes every grant of that TikTok user to the app, and no other user's", async () => {
    const first = await connectAccount(kit, { username: 'twice_granted' });
    const second = await connectAccount(kit, { username: 'twice_granted' });
    const other = await connectAccount(kit, { username: 'someone_else' });
    await kit.client.revokeToken(first.tokens.accessToken);
    const dead = await apiError(kit.client.getUserInfo(second.tokens.accessToken, ['open_id']));
    expect(dead.code).toBe('access_token_invalid');
    await expect(
      kit.client.getUserInfo(other.tokens.accessToken, ['open_id']),
    ).resolves.toMatchObject({ openId: other.tokens.openId });
  });

  it('honours declined scopes: no user.info.profile means no username', async () => {
    const { tokens, outcome } = await connectAccount(kit, {
      username: 'shy_creator',
      decline: ['user.info.profile', 'video.publish'],
    });
    expect(outcome.scopes).toEqual(['user.info.basic', 'video.list', 'video.upload']);
    expect(tokens.scopes).toEqual(outcome.scopes);
    const basic = await kit.client.getUserInfo(tokens.accessToken, ['open_id', 'display_name']);
    expect(basic.displayName).toBe('Shy Creator');
    expect(basic.username).toBeUndefined();
    const profile = await apiError(kit.client.getUserInfo(tokens.accessToken, ['username']));
    expect(profile).toMatchObject({
      code: 'scope_not_authorized',
      httpStatus: 401,
      kind: 'permanent',
    });
    const publish = await apiError(kit.client.queryCreatorInfo(tokens.accessToken));
    expect(publish.code).toBe('scope_not_authorized');
  });

  it('treats an expired access token as an auth error that a refresh fixes', async () => {
    const { tokens } = await connectAccount(kit, { username: 'sleeper' });
    clock += 86_400 * 1000;
    try {
      const expired = await apiError(kit.client.getUserInfo(tokens.accessToken, ['open_id']));
      expect(expired).toMatchObject({
        code: 'access_token_invalid',
        httpStatus: 401,
        kind: 'auth',
      });
      const refreshed = await kit.client.refreshToken(tokens.refreshToken);
      await expect(
        kit.client.getUserInfo(refreshed.accessToken, ['open_id']),
      ).resolves.toMatchObject({ openId: tokens.openId });
    } finally {
      clock -= 86_400 * 1000;
    }
  });

  it('reads token errors sent with HTTP 200', async () => {
    const { tokens } = await connectAccount(kit, { username: 'http200' });
    kit.sandbox.state.control.failNext('token', {
      type: 'error_body',
      code: 'invalid_grant',
      message: 'Refresh token is invalid or expired.',
    });
    const error = await apiError(kit.client.refreshToken(tokens.refreshToken));
    expect(error).toMatchObject({
      code: 'invalid_grant',
      httpStatus: 200,
      kind: 'permanent',
      description: 'Refresh token is invalid or expired.',
    });
    expect(error.logId).not.toBeNull();
    // The failure was injected before the sandbox looked at the token: it still works.
    await expect(kit.client.refreshToken(tokens.refreshToken)).resolves.toMatchObject({
      openId: tokens.openId,
    });
  });

  it('classifies token endpoint outages as transient', async () => {
    const { tokens } = await connectAccount(kit, { username: 'outage' });
    kit.sandbox.state.control.failNext('token', { type: 'http_error', status: 503 });
    const error = await apiError(kit.client.refreshToken(tokens.refreshToken));
    expect(error).toMatchObject({
      code: 'temporarily_unavailable',
      httpStatus: 503,
      kind: 'transient',
    });
  });
});
