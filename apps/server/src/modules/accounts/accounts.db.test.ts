import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/client.ts';
import { createTestApp, signUpViaApi, type TestApp } from '../../test-support/app.ts';
import { capturedLogger } from '../../test-support/captured-logs.ts';
import type { TikTokClient } from '../../tiktok/tiktok-client.ts';
import { consent } from '../../tiktok/sandbox-test-kit.ts';
import { createAccountRepository } from './repository.ts';
import { createTokenService } from './token-service.ts';

let t: TestApp;
let alice: string;
let bob: string;

/** What the app logged at warn level and above, one JSON line each. */
let logged: string[] = [];

beforeAll(async () => {
  const { logger, lines } = capturedLogger('warn');
  logged = lines;
  t = await createTestApp({}, { listen: true, logger });
  alice = await signUpViaApi(t.app, { email: 'alice@example.com' }, t.url);
  bob = await signUpViaApi(t.app, { email: 'bob@example.com' }, t.url);
});
afterAll(() => t.close());

function api(
  cookie: string,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  payload?: object,
) {
  return t.app.inject({
    method,
    url,
    headers: { cookie, origin: t.url },
    ...(payload && { payload }),
  });
}

async function listAccounts(cookie: string) {
  const response = await api(cookie, 'GET', '/api/accounts');
  expect(response.statusCode).toBe(200);
  return response.json<{
    accounts: {
      id: string;
      username: string;
      status: string;
      canPublish: boolean;
      scopes: string[];
      displayName: string | null;
      openId: string | null;
    }[];
  }>().accounts;
}

async function addAccount(cookie: string, username: string): Promise<string> {
  const response = await api(cookie, 'POST', '/api/accounts', { username });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ id: string }>().id;
}

/** Connect → sandbox consent page → callback with the given session; returns where the browser lands. */
async function connect(
  cookie: string,
  accountId: string,
  choice: Parameters<typeof consent>[1],
  callbackCookie = cookie,
) {
  const start = await api(cookie, 'POST', `/api/accounts/${accountId}/connect`);
  expect(start.statusCode, start.body).toBe(200);
  const authorizeUrl = start.json<{ authorizeUrl: string }>().authorizeUrl;
  const outcome = await consent(authorizeUrl, choice);
  const callback = await t.app.inject({
    url: outcome.location.pathname + outcome.location.search,
    headers: { cookie: callbackCookie },
  });
  expect(callback.statusCode).toBe(302);
  return {
    authorizeUrl,
    callbackUrl: outcome.location,
    landing: String(callback.headers.location),
  };
}

/** Where the callback sent the browser: the pending connection's id of `/tiktok?mismatch=<id>`. */
function pendingIdOf(landing: string): string {
  const id = new URL(landing, t.url).searchParams.get('mismatch');
  expect(id, landing).toMatch(/^[0-9a-f-]{36}$/);
  return id!;
}

/**
 * Connects `accountId` authorising the TikTok user `username`, which is not the card's: checks the
 * warning (and which card already holds that TikTok user), keeps, and returns the card connected.
 */
async function connectAndKeep(
  cookie: string,
  accountId: string,
  username: string,
  holderUsername: string | null,
): Promise<string> {
  const { landing } = await connect(cookie, accountId, { username });
  const pendingId = pendingIdOf(landing);
  const pending = await api(cookie, 'GET', `/api/pending-connections/${pendingId}`);
  expect(pending.statusCode, pending.body).toBe(200);
  expect(pending.json()).toMatchObject({ accountId, authorisedUsername: username, holderUsername });
  const kept = await api(cookie, 'POST', `/api/pending-connections/${pendingId}/keep`);
  expect(kept.statusCode, kept.body).toBe(200);
  return kept.json<{ accountId: string }>().accountId;
}

/** The sandbox's ledger entries of the tokens issued to the TikTok user `username`. */
function sandboxTokensOf(username: string) {
  const ledger = t.context.sandbox!.ledger();
  const openId = ledger.users.find((user) => user.username === username)?.open_id;
  expect(openId, username).toBeTruthy();
  return ledger.tokens.filter((token) => token.open_id === openId);
}

describe('adding accounts', () => {
  it('trims and stores the username as typed, refuses duplicates and empty names', async () => {
    const id = await addAccount(alice, '  Maya.Creates  ');
    const accounts = await listAccounts(alice);
    expect(accounts).toEqual([
      expect.objectContaining({ id, username: 'Maya.Creates', status: 'not_connected' }),
    ]);

    const duplicate = await api(alice, 'POST', '/api/accounts', { username: 'maya.creates' });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json()).toMatchObject({
      code: 'conflict',
      fields: { username: 'accounts.errors.duplicate' },
    });
    expect((await api(alice, 'POST', '/api/accounts', { username: '   ' })).statusCode).toBe(400);
    expect((await api(alice, 'POST', '/api/accounts', {})).statusCode).toBe(400);
    expect(await listAccounts(alice)).toHaveLength(1);

    // The same name is fine for another person.
    await addAccount(bob, 'Maya.Creates');
    await api(alice, 'DELETE', `/api/accounts/${id}`);
  });

  // Issue 12: '@camille' and 'Camille' are one TikTok account.
  it("normalises usernames: no leading '@', compared whatever the case", async () => {
    const id = await addAccount(alice, ' @camille ');
    expect((await listAccounts(alice)).find((account) => account.id === id)?.username).toBe(
      'camille',
    );
    for (const username of ['Camille', '@Camille', '@@camille']) {
      const duplicate = await api(alice, 'POST', '/api/accounts', { username });
      expect(duplicate.statusCode, username).toBe(409);
      expect(duplicate.json()).toMatchObject({ fields: { username: 'accounts.errors.duplicate' } });
    }
    const bare = await api(alice, 'POST', '/api/accounts', { username: ' @ ' });
    expect(bare.statusCode).toBe(400);
    expect(await listAccounts(alice)).toHaveLength(1);
    await api(alice, 'DELETE', `/api/accounts/${id}`);
  });

  // A card must not be made to look like another: full-width letters are the same account, and
  // invisible or reordering characters (zero-width, bidi overrides) are refused, with a reason.
  it('refuses look-alike usernames: full-width is the same account, invisible characters are refused', async () => {
    const id = await addAccount(alice, 'camille');
    for (const username of ['ｃａｍｉｌｌｅ', '＠Camille']) {
      const duplicate = await api(alice, 'POST', '/api/accounts', { username });
      expect(duplicate.statusCode, username).toBe(409);
    }
    for (const username of [
      'cami\u200Blle',
      'camille\u200D',
      '\u202Eellimac',
      'cam\u2066ille',
      'cam ille',
      'cam\u00A0ille',
      'cam\u0007ille',
    ]) {
      const refused = await api(alice, 'POST', '/api/accounts', { username });
      expect(refused.statusCode, JSON.stringify(username)).toBe(400);
      expect(refused.json()).toMatchObject({
        code: 'validation_failed',
        fields: { username: 'accounts.errors.usernameInvisible' },
      });
    }
    expect(await listAccounts(alice)).toHaveLength(1);
    await api(alice, 'DELETE', `/api/accounts/${id}`);
  });
});

describe('isolation between users', () => {
  it("lets nobody see, connect, configure or delete someone else's account", async () => {
    const id = await addAccount(alice, 'private_one');
    expect((await listAccounts(bob)).map((a) => a.id)).not.toContain(id);
    expect((await api(bob, 'POST', `/api/accounts/${id}/connect`)).statusCode).toBe(404);
    expect((await api(bob, 'DELETE', `/api/accounts/${id}`)).statusCode).toBe(404);
    expect((await api(bob, 'GET', `/api/accounts/${id}/creator-info`)).statusCode).toBe(404);
    const settings = await api(bob, 'PATCH', `/api/accounts/${id}/settings`, {
      defaultPrivacyLevel: 'SELF_ONLY',
      allowComment: true,
      allowDuet: true,
      allowStitch: true,
    });
    expect(settings.statusCode).toBe(404);
    const mine = (await listAccounts(alice)).find((a) => a.id === id);
    expect(mine).toMatchObject({ username: 'private_one', status: 'not_connected' });
    expect((await t.app.inject({ url: '/api/accounts' })).statusCode).toBe(401);
    expect((await api(alice, 'DELETE', '/api/accounts/not-a-uuid')).statusCode).toBe(400);
    await api(alice, 'DELETE', `/api/accounts/${id}`);
  });
});

describe('connecting through TikTok (sandbox)', () => {
  it('builds the authorize URL per the contract and connects the added card itself', async () => {
    const id = await addAccount(alice, 'Luna_TikTok');
    const { authorizeUrl, landing } = await connect(alice, id, { username: 'luna_tiktok' });
    const url = new URL(authorizeUrl);
    expect(url.origin + url.pathname).toBe(`${t.url}/sandbox/tiktok/v2/auth/authorize/`);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_key: t.config.tiktok.clientKey,
      scope:
        'user.info.basic,user.info.profile,user.info.stats,video.list,video.upload,video.publish',
      response_type: 'code',
      redirect_uri: `${t.url}/auth/callback`,
      code_challenge_method: 'S256',
      // Read by the sandbox's consent page to pre-fill the username; TikTok ignores it.
      username_hint: 'Luna_TikTok',
    });
    expect(url.searchParams.get('state')).toMatch(/^[\w-]{43}$/);
    expect(url.searchParams.get('code_challenge')).toMatch(/^[0-9a-f]{64}$/);
    expect(url.searchParams.has('client_secret')).toBe(false);

    expect(landing).toBe(`/tiktok?connected=${id}`);
    const accounts = await listAccounts(alice);
    expect(accounts).toHaveLength(1);
    expect(accounts[0]).toMatchObject({
      id,
      username: 'luna_tiktok',
      status: 'connected',
      canPublish: true,
    });
    expect(accounts[0]!.openId).toBeTruthy();
    expect(accounts[0]!.displayName).toBeTruthy();

    // Tokens are ciphertext at rest and appear in no API response.
    const row = await t.context.accountRepository.findById(id);
    const accessToken = t.context.cipher.decrypt(row!.access_token_enc!);
    const refreshToken = t.context.cipher.decrypt(row!.refresh_token_enc!);
    expect(row!.access_token_enc).not.toContain(accessToken);
    for (const response of [
      await api(alice, 'GET', '/api/accounts'),
      await api(alice, 'GET', `/api/accounts/${id}/creator-info`),
      await api(alice, 'GET', '/api/me'),
    ]) {
      expect(response.body).not.toContain(accessToken);
      expect(response.body).not.toContain(refreshToken);
      expect(response.body.toLowerCase()).not.toContain('token');
    }
    await api(alice, 'DELETE', `/api/accounts/${id}`);
  });

  it('refuses a reused, tampered, foreign or expired state', async () => {
    const id = await addAccount(alice, 'state_checks');
    const first = await connect(alice, id, { username: 'state_checks' });
    expect(first.landing).toBe(`/tiktok?connected=${id}`);
    const replay = await t.app.inject({
      url: first.callbackUrl.pathname + first.callbackUrl.search,
      headers: { cookie: alice },
    });
    expect(replay.headers.location).toBe('/tiktok?error=state');

    const tampered = new URL(first.callbackUrl);
    tampered.searchParams.set('state', 'x'.repeat(43));
    expect(
      (await t.app.inject({ url: tampered.pathname + tampered.search, headers: { cookie: alice } }))
        .headers.location,
    ).toBe('/tiktok?error=state');

    // Alice's state arriving with Bob's session (a link forwarded to someone else).
    const foreign = await connect(alice, id, { username: 'state_checks' }, bob);
    expect(foreign.landing).toBe('/tiktok?error=state');

    const start = await api(alice, 'POST', `/api/accounts/${id}/connect`);
    const outcome = await consent(start.json<{ authorizeUrl: string }>().authorizeUrl, {
      username: 'state_checks',
    });
    await sql`update oauth_states set expires_at = now() - interval '1 minute'`.execute(
      t.context.database.db,
    );
    const expired = await t.app.inject({
      url: outcome.location.pathname + outcome.location.search,
      headers: { cookie: alice },
    });
    expect(expired.headers.location).toBe('/tiktok?error=state');
    await api(alice, 'DELETE', `/api/accounts/${id}`);
  });

  it('shows a connection error when the person denies, and a token error when the exchange fails', async () => {
    const id = await addAccount(alice, 'denier');
    const denied = await connect(alice, id, { username: 'denier', deny: true });
    expect(denied.landing).toBe('/tiktok?error=connection');
    expect((await listAccounts(alice)).find((a) => a.id === id)).toMatchObject({
      status: 'not_connected',
    });

    t.context.sandbox!.control.failNext(
      'token',
      { type: 'error_body', code: 'invalid_grant', status: 200 },
      1,
    );
    logged.length = 0;
    const failed = await connect(alice, id, { username: 'denier' });
    expect(failed.landing).toBe('/tiktok?error=token');
    // A refused code is what anyone can send to the callback: a warning, not an operator's error.
    const entries = logged.map((line) => JSON.parse(line) as { level: number; msg: string });
    expect(entries.filter((entry) => entry.level >= 50)).toEqual([]);
    expect(entries.map((entry) => entry.msg)).toContain('TikTok token exchange failed');
    expect((await listAccounts(alice)).find((a) => a.id === id)).toMatchObject({
      status: 'not_connected',
    });
    await api(alice, 'DELETE', `/api/accounts/${id}`);
  });

  it('updates the existing card when the same TikTok user is connected again, without a duplicate', async () => {
    const first = await addAccount(alice, 'twin_on_tiktok');
    await connect(alice, first, { username: 'twin_on_tiktok' });
    const second = await addAccount(alice, 'twin-again');
    const again = await connectAndKeep(alice, second, 'twin_on_tiktok', 'twin_on_tiktok');
    expect(again).toBe(first);
    const accounts = await listAccounts(alice);
    expect(accounts.filter((a) => a.username === 'twin_on_tiktok')).toHaveLength(1);
    expect(accounts.map((a) => a.id)).not.toContain(second);
    await api(alice, 'DELETE', `/api/accounts/${first}`);
  });

  // Regression: completeConnect overwrote the card's username with TikTok's, hit the unique index
  // on (user, username), answered "Erreur lors de la récupération du token d'accès" and kept
  // neither the tokens nor the connection.
  it("connects the clicked card when TikTok's username is another card's name (regression: token error)", async () => {
    const placeholder = await addAccount(alice, 'collide_alice');
    const clicked = await addAccount(alice, 'collide_bob');
    expect(await connectAndKeep(alice, clicked, 'collide_alice', null)).toBe(clicked);

    // The card now says who it really is on TikTok; the never-connected card that only named
    // that same TikTok user is gone, so there is one card per TikTok account.
    const mine = (await listAccounts(alice)).filter((a) => a.username.startsWith('collide_'));
    expect(mine).toEqual([
      expect.objectContaining({ id: clicked, username: 'collide_alice', status: 'connected' }),
    ]);
    expect(mine.map((a) => a.id)).not.toContain(placeholder);
    // The tokens were stored and work.
    const info = await api(alice, 'GET', `/api/accounts/${clicked}/creator-info`);
    expect(info.statusCode, info.body).toBe(200);
    await api(alice, 'DELETE', `/api/accounts/${clicked}`);
  });

  it("keeps the card's username when TikTok's belongs to a card of another TikTok user", async () => {
    // A card connected without the profile scope keeps its typed name: here 'stale_name', for
    // the TikTok user 'renamed_user' (as after a rename on TikTok).
    const other = await addAccount(alice, 'stale_name');
    await connect(alice, other, { username: 'renamed_user', decline: ['user.info.profile'] });
    const clicked = await addAccount(alice, 'typed_name');
    expect(await connectAndKeep(alice, clicked, 'stale_name', null)).toBe(clicked);
    const accounts = await listAccounts(alice);
    expect(accounts.find((a) => a.id === clicked)).toMatchObject({
      username: 'typed_name',
      status: 'connected',
    });
    expect(accounts.find((a) => a.id === other)).toMatchObject({
      username: 'stale_name',
      status: 'connected',
    });
    expect((await api(alice, 'GET', `/api/accounts/${clicked}/creator-info`)).json()).toMatchObject(
      { username: 'stale_name' },
    );
    await api(alice, 'DELETE', `/api/accounts/${clicked}`);
    await api(alice, 'DELETE', `/api/accounts/${other}`);
  });

  it('revokes the tokens TikTok just issued when connecting fails after the exchange', async () => {
    const id = await addAccount(alice, 'half_way');
    const sandbox = t.context.sandbox!;
    sandbox.control.failNext('user_info', { type: 'http_error', status: 500 }, 1);
    const { landing } = await connect(alice, id, { username: 'half_way_tiktok' });
    expect(landing).toBe('/tiktok?error=token');
    expect((await listAccounts(alice)).find((a) => a.id === id)).toMatchObject({
      status: 'not_connected',
    });
    const ledger = sandbox.ledger();
    const openId = ledger.users.find((user) => user.username === 'half_way_tiktok')!.open_id;
    const issued = ledger.tokens.filter((token) => token.open_id === openId);
    expect(issued.map((token) => token.kind).sort()).toEqual(['access', 'refresh']);
    // No live grant left behind at TikTok.
    expect(issued.filter((token) => token.revoked_at === null)).toEqual([]);
    await api(alice, 'DELETE', `/api/accounts/${id}`);
  });

  it('says when the publish scope was declined', async () => {
    const id = await addAccount(alice, 'no_publish');
    await connect(alice, id, { username: 'no_publish', decline: ['video.publish'] });
    const account = (await listAccounts(alice)).find((a) => a.id === id);
    expect(account).toMatchObject({ status: 'connected', canPublish: false });
    expect(account!.scopes).not.toContain('video.publish');
    await api(alice, 'DELETE', `/api/accounts/${id}`);
  });
});

// Issue 12: the TikTok account authorised is not the one on the card. Nothing changes before the
// person chooses; the choice is held server-side, for them only, once, for a few minutes.
describe('connecting another TikTok account than the card says', () => {
  it('warns before changing anything, then keeps it on the card (renamed) once', async () => {
    const id = await addAccount(alice, 'mia');
    const { landing } = await connect(alice, id, { username: 'not_mia' });
    const pendingId = pendingIdOf(landing);
    expect((await listAccounts(alice)).find((a) => a.id === id)).toMatchObject({
      username: 'mia',
      status: 'not_connected',
      openId: null,
    });
    const pending = await api(alice, 'GET', `/api/pending-connections/${pendingId}`);
    expect(pending.statusCode, pending.body).toBe(200);
    expect(pending.json()).toMatchObject({
      id: pendingId,
      accountId: id,
      cardUsername: 'mia',
      authorisedUsername: 'not_mia',
      holderUsername: null,
    });
    expect(pending.body.toLowerCase()).not.toContain('token');

    // Someone else's choice looks like no choice at all, and their attempts change nothing.
    for (const [method, path] of [
      ['GET', ''],
      ['POST', '/keep'],
      ['POST', '/cancel'],
    ] as const) {
      const foreign = await api(bob, method, `/api/pending-connections/${pendingId}${path}`);
      expect(foreign.statusCode, `${method} ${path}`).toBe(404);
      expect(foreign.json()).toMatchObject({ fields: { id: 'accounts.errors.pendingGone' } });
    }
    const anonymous = await t.app.inject({
      method: 'POST',
      url: `/api/pending-connections/${pendingId}/keep`,
      headers: { origin: t.url },
    });
    expect(anonymous.statusCode).toBe(401);
    expect((await api(alice, 'POST', '/api/pending-connections/nope/keep')).statusCode).toBe(400);

    const kept = await api(alice, 'POST', `/api/pending-connections/${pendingId}/keep`);
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json()).toEqual({ accountId: id });
    expect((await listAccounts(alice)).find((a) => a.id === id)).toMatchObject({
      username: 'not_mia',
      status: 'connected',
    });
    expect((await api(alice, 'GET', `/api/accounts/${id}/creator-info`)).statusCode).toBe(200);
    // Single use.
    for (const path of ['', '/keep', '/cancel']) {
      const again = await api(
        alice,
        path ? 'POST' : 'GET',
        `/api/pending-connections/${pendingId}${path}`,
      );
      expect(again.statusCode, path).toBe(404);
    }
    expect(sandboxTokensOf('not_mia').filter((token) => token.revoked_at !== null)).toEqual([]);
    await api(alice, 'DELETE', `/api/accounts/${id}`);
  });

  it('cancel changes nothing on the card and revokes the grant just issued', async () => {
    const id = await addAccount(alice, 'noah');
    expect((await connect(alice, id, { username: 'noah' })).landing).toBe(
      `/tiktok?connected=${id}`,
    );
    const before = await t.context.accountRepository.findById(id);
    const { landing } = await connect(alice, id, { username: 'noah_other' });
    const pendingId = pendingIdOf(landing);
    // The card still holds its own grant while the person decides.
    const during = await t.context.accountRepository.findById(id);
    expect(during).toMatchObject({
      username: 'noah',
      open_id: before!.open_id,
      access_token_enc: before!.access_token_enc,
    });

    const cancelled = await api(alice, 'POST', `/api/pending-connections/${pendingId}/cancel`);
    expect(cancelled.statusCode, cancelled.body).toBe(204);
    const after = await t.context.accountRepository.findById(id);
    expect(after).toMatchObject({
      username: 'noah',
      status: 'connected',
      open_id: before!.open_id,
      access_token_enc: before!.access_token_enc,
    });
    expect((await api(alice, 'GET', `/api/accounts/${id}/creator-info`)).statusCode).toBe(200);
    const issued = sandboxTokensOf('noah_other');
    expect(issued.length).toBeGreaterThan(0);
    expect(issued.filter((token) => token.revoked_at === null)).toEqual([]);
    expect(sandboxTokensOf('noah').filter((token) => token.revoked_at === null)).not.toEqual([]);
    expect(
      (await api(alice, 'POST', `/api/pending-connections/${pendingId}/keep`)).statusCode,
    ).toBe(404);
    await api(alice, 'DELETE', `/api/accounts/${id}`);
  });

  it("reconnecting to another TikTok user revokes the card's previous grant; the same user's stays", async () => {
    const id = await addAccount(alice, 'ivy');
    await connect(alice, id, { username: 'ivy' });
    expect(await connectAndKeep(alice, id, 'ivy_two', null)).toBe(id);
    expect((await listAccounts(alice)).find((a) => a.id === id)).toMatchObject({
      username: 'ivy_two',
      status: 'connected',
    });
    // The grant it replaced was another TikTok user's: revoked at TikTok (the sandbox records it).
    const ivy = sandboxTokensOf('ivy');
    expect(ivy.length).toBeGreaterThan(0);
    expect(ivy.filter((token) => token.revoked_at === null)).toEqual([]);

    // Reconnecting the same TikTok user: no warning, and no revocation, which at TikTok would
    // disconnect the app from that user, new grant included.
    expect((await connect(alice, id, { username: 'ivy_two' })).landing).toBe(
      `/tiktok?connected=${id}`,
    );
    expect(sandboxTokensOf('ivy_two').filter((token) => token.revoked_at !== null)).toEqual([]);
    expect((await api(alice, 'GET', `/api/accounts/${id}/creator-info`)).statusCode).toBe(200);
    await api(alice, 'DELETE', `/api/accounts/${id}`);
  });

  it('an unanswered choice expires: nothing changes and the purge revokes its grant', async () => {
    const id = await addAccount(alice, 'late');
    const pendingId = pendingIdOf((await connect(alice, id, { username: 'late_other' })).landing);
    await sql`update tiktok_pending_connections set expires_at = now() - interval '1 second' where id = ${pendingId}`.execute(
      t.context.database.db,
    );
    expect((await api(alice, 'GET', `/api/pending-connections/${pendingId}`)).statusCode).toBe(404);
    expect(
      (await api(alice, 'POST', `/api/pending-connections/${pendingId}/keep`)).statusCode,
    ).toBe(404);
    expect(await t.context.accounts.purgeExpiredPendingConnections()).toBe(1);
    expect(sandboxTokensOf('late_other').filter((token) => token.revoked_at === null)).toEqual([]);
    expect((await listAccounts(alice)).find((a) => a.id === id)).toMatchObject({
      username: 'late',
      status: 'not_connected',
    });
    await api(alice, 'DELETE', `/api/accounts/${id}`);
  });
});

describe('tokens over time', () => {
  it('refreshes after a 401 and stores the rotated refresh token', async () => {
    const id = await addAccount(alice, 'refresher');
    await connect(alice, id, { username: 'refresher' });
    const before = await t.context.accountRepository.findById(id);
    const oldAccess = t.context.cipher.decrypt(before!.access_token_enc!);
    const oldRefresh = t.context.cipher.decrypt(before!.refresh_token_enc!);
    t.context.sandbox!.control.expireAccessToken(oldAccess);

    const info = await api(alice, 'GET', `/api/accounts/${id}/creator-info`);
    expect(info.statusCode, info.body).toBe(200);
    expect(info.json()).toMatchObject({
      nickname: expect.any(String),
      privacyLevelOptions: expect.arrayContaining(['SELF_ONLY']),
    });

    const after = await t.context.accountRepository.findById(id);
    expect(t.context.cipher.decrypt(after!.access_token_enc!)).not.toBe(oldAccess);
    expect(t.context.cipher.decrypt(after!.refresh_token_enc!)).not.toBe(oldRefresh);
    // The old refresh token is dead at TikTok's side: rotation really happened.
    await expect(t.context.tiktok.refreshToken(oldRefresh)).rejects.toMatchObject({
      code: 'invalid_grant',
    });
    await api(alice, 'DELETE', `/api/accounts/${id}`);
  });

  it('refreshes ahead of expiry in the periodic job, and marks the account when TikTok refuses', async () => {
    const id = await addAccount(alice, 'periodic');
    await connect(alice, id, { username: 'periodic' });
    await sql`update tiktok_accounts set access_token_expires_at = now() + interval '1 minute' where id = ${id}`.execute(
      t.context.database.db,
    );
    const beforeRow = await t.context.accountRepository.findById(id);
    expect(await t.context.tokens.refreshDue()).toMatchObject({ refreshed: 1, failed: 0 });
    const afterRow = await t.context.accountRepository.findById(id);
    expect(afterRow!.access_token_expires_at!.getTime()).toBeGreaterThan(
      Date.now() + 60 * 60 * 1000,
    );
    expect(afterRow!.refresh_token_enc).not.toBe(beforeRow!.refresh_token_enc);

    // The person removed Cadence's access on TikTok: the refresh token is dead.
    await t.context.tiktok.revokeToken(t.context.cipher.decrypt(afterRow!.refresh_token_enc!));
    await sql`update tiktok_accounts set access_token_expires_at = now() where id = ${id}`.execute(
      t.context.database.db,
    );
    expect(await t.context.tokens.refreshDue()).toMatchObject({ refreshed: 0, failed: 1 });
    expect((await listAccounts(alice)).find((a) => a.id === id)).toMatchObject({
      status: 'reconnect_needed',
    });
    const info = await api(alice, 'GET', `/api/accounts/${id}/creator-info`);
    expect(info.statusCode).toBe(409);
    expect(info.json()).toMatchObject({
      fields: { accountId: 'accounts.errors.reconnectNeeded' },
    });

    // Reconnecting brings it back.
    expect((await connect(alice, id, { username: 'periodic' })).landing).toBe(
      `/tiktok?connected=${id}`,
    );
    expect((await listAccounts(alice)).find((a) => a.id === id)).toMatchObject({
      status: 'connected',
    });
    await api(alice, 'DELETE', `/api/accounts/${id}`);
  });
});

/** The app's TikTok client, counting the refreshes it is asked for. */
function countingRefreshes() {
  let calls = 0;
  const client: TikTokClient = {
    ...t.context.tiktok,
    refreshToken: (token, options) => {
      calls++;
      return t.context.tiktok.refreshToken(token, options);
    },
  };
  return {
    client,
    get calls() {
      return calls;
    },
    reset() {
      calls = 0;
    },
  };
}

describe('tokens across processes', () => {
  // Regression: refreshes were shared only inside one process. Two workers refreshing with the
  // same refresh token: TikTok rotated it, the loser got invalid_grant and marked the account
  // 'reconnect needed' although it held valid tokens.
  it('makes one refresh at TikTok when two processes refresh the same account at once', async () => {
    const id = await addAccount(alice, 'two_workers');
    await connect(alice, id, { username: 'two_workers' });
    await sql`update tiktok_accounts set access_token_expires_at = now() + interval '1 minute' where id = ${id}`.execute(
      t.context.database.db,
    );
    // What a second process has: its own connections to the same database (PGlite is one
    // process's database, so there both services share it), its own token service.
    const url = t.context.database.connectionString;
    const second = url
      ? await openDatabase({ databaseUrl: url, pgliteDataDir: '', poolSize: 2 })
      : null;
    const counting = countingRefreshes();
    const processes = [t.context.database.db, second?.db ?? t.context.database.db].map((db) =>
      createTokenService({
        accounts: createAccountRepository(db),
        cipher: t.context.cipher,
        tiktok: counting.client,
      }),
    );
    // TikTok answering slowly makes the two refreshes overlap for certain.
    t.context.sandbox!.control.setLatency(300);
    try {
      const tokens = await Promise.all(processes.map((tokens) => tokens.getAccessToken(id)));
      expect(counting.calls).toBe(1);
      expect(tokens[0]).toBe(tokens[1]);
      await expect(t.context.tiktok.queryCreatorInfo(tokens[0]!)).resolves.toMatchObject({
        creatorUsername: 'two_workers',
      });
      expect((await listAccounts(alice)).find((a) => a.id === id)).toMatchObject({
        status: 'connected',
      });

      // The periodic job of both processes at once: still one refresh, and nobody failed.
      await sql`update tiktok_accounts set access_token_expires_at = now() + interval '1 minute' where id = ${id}`.execute(
        t.context.database.db,
      );
      counting.reset();
      const results = await Promise.all(processes.map((tokens) => tokens.refreshDue()));
      expect(counting.calls).toBe(1);
      expect(results.map((result) => result.failed)).toEqual([0, 0]);
      expect((await listAccounts(alice)).find((a) => a.id === id)).toMatchObject({
        status: 'connected',
      });
    } finally {
      t.context.sandbox!.control.setLatency(0);
      await second?.close();
    }
    await api(alice, 'DELETE', `/api/accounts/${id}`);
  });

  it('keeps the refresh lock while a refresh outlasts its lease: still one refresh at TikTok', async () => {
    const id = await addAccount(alice, 'slow_refresh');
    await connect(alice, id, { username: 'slow_refresh' });
    await sql`update tiktok_accounts set access_token_expires_at = now() + interval '1 minute' where id = ${id}`.execute(
      t.context.database.db,
    );
    const counting = countingRefreshes();
    // A 600 ms lease and a TikTok answering in 1.5 s: only its renewals keep the lock the holder's.
    const processes = [1, 2].map(() =>
      createTokenService({
        accounts: createAccountRepository(t.context.database.db),
        cipher: t.context.cipher,
        tiktok: counting.client,
        lockMs: 600,
      }),
    );
    t.context.sandbox!.control.setLatency(1_500);
    try {
      const tokens = await Promise.all(processes.map((tokens) => tokens.getAccessToken(id)));
      expect(counting.calls).toBe(1);
      expect(tokens[0]).toBe(tokens[1]);
    } finally {
      t.context.sandbox!.control.setLatency(0);
    }
    expect((await listAccounts(alice)).find((a) => a.id === id)).toMatchObject({
      status: 'connected',
    });
    await api(alice, 'DELETE', `/api/accounts/${id}`);
  });
});

describe('settings and deletion', () => {
  it('stores per-account defaults and validates them', async () => {
    const id = await addAccount(alice, 'configured');
    const ok = await api(alice, 'PATCH', `/api/accounts/${id}/settings`, {
      defaultPrivacyLevel: 'MUTUAL_FOLLOW_FRIENDS',
      allowComment: true,
      allowDuet: false,
      allowStitch: true,
    });
    expect(ok.json()).toMatchObject({
      settings: {
        defaultPrivacyLevel: 'MUTUAL_FOLLOW_FRIENDS',
        allowComment: true,
        allowDuet: false,
        allowStitch: true,
      },
    });
    const bad = await api(alice, 'PATCH', `/api/accounts/${id}/settings`, {
      defaultPrivacyLevel: 'EVERYONE_EVER',
      allowComment: 'yes',
      allowDuet: false,
      allowStitch: true,
    });
    expect(bad.statusCode).toBe(400);
    expect((await listAccounts(alice)).find((a) => a.id === id)).toMatchObject({
      status: 'not_connected',
    });
    await api(alice, 'DELETE', `/api/accounts/${id}`);
  });

  it('revokes the token at TikTok when an account is deleted', async () => {
    const id = await addAccount(alice, 'leaving');
    await connect(alice, id, { username: 'leaving' });
    const row = await t.context.accountRepository.findById(id);
    const accessToken = t.context.cipher.decrypt(row!.access_token_enc!);
    const deleted = await api(alice, 'DELETE', `/api/accounts/${id}`);
    expect(deleted.statusCode).toBe(200);
    expect((await listAccounts(alice)).map((a) => a.id)).not.toContain(id);
    await expect(t.context.tiktok.queryCreatorInfo(accessToken)).rejects.toMatchObject({
      code: 'access_token_invalid',
    });
  });
});
