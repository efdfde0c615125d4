import formbody from '@fastify/formbody';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tiktokSandbox } from './plugin.ts';
import { SandboxState } from './sandbox-state.ts';

const REDIRECT = 'https://app.example/api/tiktok/callback';
const CLIENT = {
  clientKey: 'ck',
  clientSecret: 'cs',
  redirectUris: [REDIRECT],
  appName: 'Cadence',
};
const PREFIX = '/sandbox/tiktok';

function authorizeQuery(overrides: Record<string, string | undefined> = {}): string {
  const params: Record<string, string | undefined> = {
    client_key: 'ck',
    redirect_uri: REDIRECT,
    response_type: 'code',
    scope: 'user.info.basic,user.info.profile,video.publish',
    state: 'st-1',
    code_challenge: 'a'.repeat(64),
    code_challenge_method: 'S256',
    ...overrides,
  };
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params))
    if (value !== undefined) query.set(name, value);
  return `${PREFIX}/v2/auth/authorize/?${query.toString()}`;
}

describe('sandbox authorize page', () => {
  let app: FastifyInstance;
  let state: SandboxState;

  beforeEach(async () => {
    state = new SandboxState({ clients: [CLIENT] });
    app = Fastify();
    // The host app parses forms itself and sets a strict CSP everywhere, like helmet does.
    await app.register(formbody);
    app.addHook('onRequest', async (_request, reply) => {
      reply.header('content-security-policy', "default-src 'self'; form-action 'self'");
    });
    await app.register(tiktokSandbox, { prefix: PREFIX, state });
    await app.ready();
  });
  afterEach(async () => {
    await app.close();
  });

  it('shows a script-free consent page with the scopes, a username field and both buttons', async () => {
    const response = await app.inject({ url: authorizeQuery() });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("style-src 'unsafe-inline'");
    expect(csp).toContain("form-action 'self' https://app.example");
    expect(csp).not.toContain('script-src');
    const html = response.body;
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain('<title>Authorize Cadence | TikTok</title>');
    expect(html).toMatch(
      /<input type="checkbox" id="scope-0" name="granted_scope" value="user.info.basic" checked disabled>/,
    );
    expect(html).toMatch(/value="user.info.profile" checked>/);
    expect(html).toMatch(/value="video.publish" checked>/);
    expect(html).toMatch(/<label class="field" for="username">TikTok username<\/label>/);
    expect(html).toMatch(/id="username" name="username" value="creator_\d{4}"/);
    expect(html).toMatch(
      /<button type="submit" name="action" value="authorize"[^>]*>Authorize<\/button>/,
    );
    expect(html).toMatch(/<button type="submit" name="action" value="deny"[^>]*>Deny<\/button>/);
    expect(html).toContain(`action="${PREFIX}/v2/auth/authorize/"`);
  });

  // Issue 12: the consent page pre-fills the username of the card being connected.
  it('pre-fills the username the app hints at, and ignores an unusable hint', async () => {
    const hinted = await app.inject({ url: authorizeQuery({ username_hint: '@Maya.Creates' }) });
    expect(hinted.statusCode).toBe(200);
    expect(hinted.body).toMatch(/id="username" name="username" value="maya.creates"/);
    // Not carried in the form: what comes back is what the person typed.
    expect(hinted.body).not.toContain('name="username_hint"');
    for (const hint of ['luna-again', 'a', '<b>x</b>']) {
      const ignored = await app.inject({ url: authorizeQuery({ username_hint: hint }) });
      expect(ignored.statusCode).toBe(200);
      expect(ignored.body).toMatch(/id="username" name="username" value="creator_\d{4}"/);
    }
  });

  it.each([
    ['an unregistered redirect_uri', { redirect_uri: 'https://evil.example/cb' }, /redirect_uri/],
    ['a redirect_uri differing by a slash', { redirect_uri: `${REDIRECT}/` }, /redirect_uri/],
    ['an unknown client_key', { client_key: 'nope' }, /client_key/],
    ['an unknown scope', { scope: 'user.info.basic,video.delete' }, /scope/],
    ['space-separated scopes', { scope: 'user.info.basic video.publish' }, /scope/],
    ['a missing state', { state: undefined }, /state/],
    ['response_type=token', { response_type: 'token' }, /response_type/],
    ['a plain PKCE method', { code_challenge_method: 'plain' }, /S256/],
  ])('answers %s with a 400 page, never a redirect', async (_name, overrides, message) => {
    const response = await app.inject({ url: authorizeQuery(overrides) });
    expect(response.statusCode).toBe(400);
    expect(response.headers.location).toBeUndefined();
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.headers['content-security-policy']).toContain("form-action 'none'");
    expect(response.body).toMatch(message);
    expect(response.body).not.toContain('<form');
  });

  it('escapes what it echoes', async () => {
    const response = await app.inject({
      url: authorizeQuery({ state: '"><script>alert(1)</script>' }),
    });
    expect(response.statusCode).toBe(200);
    expect(response.body).not.toContain('<script>');
    expect(response.body).toContain('value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
  });

  function submit(form: Record<string, string | string[]>) {
    const body = new URLSearchParams();
    for (const [name, value] of Object.entries(form)) {
      for (const item of Array.isArray(value) ? value : [value]) body.append(name, item);
    }
    return app.inject({
      method: 'POST',
      url: `${PREFIX}/v2/auth/authorize/`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: body.toString(),
    });
  }

  const hiddenFields = {
    client_key: 'ck',
    redirect_uri: REDIRECT,
    response_type: 'code',
    scope: 'user.info.basic,user.info.profile,video.publish',
    state: 'st-1',
    code_challenge: 'a'.repeat(64),
    code_challenge_method: 'S256',
  };

  it('redirects with a code and only the scopes left ticked', async () => {
    const response = await submit({
      ...hiddenFields,
      granted_scope: ['video.publish'],
      username: '@Creator_42',
      action: 'authorize',
    });
    expect(response.statusCode).toBe(302);
    const location = new URL(String(response.headers.location));
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
    expect(location.searchParams.get('scopes')).toBe('user.info.basic,video.publish');
    expect(location.searchParams.get('state')).toBe('st-1');
    expect(location.searchParams.get('code')).toMatch(/\*!\d{4}\.va$/);
    expect(state.ledger().users).toEqual([
      expect.objectContaining({
        username: 'creator_42',
        display_name: 'Creator 42',
        client_key: 'ck',
      }),
    ]);
  });

  it('redirects a denial with access_denied and the state', async () => {
    const response = await submit({ ...hiddenFields, username: '', action: 'deny' });
    expect(response.statusCode).toBe(302);
    const location = new URL(String(response.headers.location));
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('error_description')).not.toBe('');
    expect(location.searchParams.get('state')).toBe('st-1');
    expect(location.searchParams.has('code')).toBe(false);
  });

  it('re-checks the hidden fields: a tampered redirect_uri gets the error page', async () => {
    const response = await submit({
      ...hiddenFields,
      redirect_uri: 'https://evil.example/cb',
      username: 'creator_1',
      action: 'authorize',
    });
    expect(response.statusCode).toBe(400);
    expect(response.headers.location).toBeUndefined();
  });

  it('shows the form again with a message for an impossible username', async () => {
    const response = await submit({ ...hiddenFields, username: 'no spaces!', action: 'authorize' });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('role="alert"');
    expect(response.body).toContain('value="no spaces!"');
    expect(response.headers.location).toBeUndefined();
  });
});
