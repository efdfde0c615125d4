import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createPersistScheduler } from './oauth-persistence.ts';
import { tiktokSandbox } from './plugin.ts';
import { SandboxState } from './sandbox-state.ts';

const REDIRECT = 'https://app.example/cb';
const CLIENT = { clientKey: 'ck', clientSecret: 'cs', redirectUris: [REDIRECT] };
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

let dir: string;
let file: string;
const apps: FastifyInstance[] = [];

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'tiktok-sandbox-persist-'));
  file = path.join(dir, 'tiktok-sandbox.json');
});
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A "server start": a fresh state read from `file`, mounted on a fresh Fastify instance. */
async function start(warnings: string[] = []) {
  const state = new SandboxState({
    clients: [CLIENT],
    persistFile: file,
    onPersistenceWarning: (message) => warnings.push(message),
  });
  const app = Fastify();
  await app.register(tiktokSandbox, { state });
  await app.ready();
  apps.push(app);
  return { app, state };
}

/** Consent form → code → token exchange, all over HTTP as a person and Cadence would do it. */
async function connect(app: FastifyInstance, username: string) {
  const consent = await app.inject({
    method: 'POST',
    url: '/v2/auth/authorize/',
    headers: FORM,
    payload: new URLSearchParams({
      client_key: 'ck',
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: 'user.info.basic,video.publish',
      state: 'st',
      granted_scope: 'video.publish',
      username,
      action: 'authorize',
    }).toString(),
  });
  expect(consent.statusCode).toBe(302);
  const code = new URL(String(consent.headers.location)).searchParams.get('code') ?? '';
  const exchange = await app.inject({
    method: 'POST',
    url: '/v2/oauth/token/',
    headers: FORM,
    payload: new URLSearchParams({
      client_key: 'ck',
      client_secret: 'cs',
      code,
      grant_type: 'authorization_code',
      redirect_uri: REDIRECT,
    }).toString(),
  });
  expect(exchange.statusCode).toBe(200);
  return tokensOf(exchange.json());
}

const tokenResponse = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
  open_id: z.string(),
});

function tokensOf(body: unknown) {
  const parsed = tokenResponse.parse(body);
  return {
    accessToken: parsed.access_token,
    refreshToken: parsed.refresh_token,
    openId: parsed.open_id,
  };
}

function refresh(app: FastifyInstance, refreshToken: string) {
  return app.inject({
    method: 'POST',
    url: '/v2/oauth/token/',
    headers: FORM,
    payload: new URLSearchParams({
      client_key: 'ck',
      client_secret: 'cs',
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
    }).toString(),
  });
}

function revoke(app: FastifyInstance, token: string) {
  return app.inject({
    method: 'POST',
    url: '/v2/oauth/revoke/',
    headers: FORM,
    payload: new URLSearchParams({ client_key: 'ck', client_secret: 'cs', token }).toString(),
  });
}

async function userInfo(app: FastifyInstance, accessToken: string) {
  const response = await app.inject({
    url: '/v2/user/info/?fields=open_id,display_name',
    headers: { authorization: `Bearer ${accessToken}` },
  });
  const body = response.json<{ data: { user?: { open_id: string } }; error: { code: string } }>();
  return { status: response.statusCode, code: body.error.code, openId: body.data.user?.open_id };
}

describe('sandbox persistFile', () => {
  it('keeps users and tokens across a restart, with rotation and revocation intact', async () => {
    const first = await start();
    const alice = await connect(first.app, 'alice_1');
    const rotated = await refresh(first.app, alice.refreshToken);
    expect(rotated.statusCode).toBe(200);
    const aliceNow = tokensOf(rotated.json());
    const bob = await connect(first.app, 'bob_2');
    expect((await revoke(first.app, bob.refreshToken)).statusCode).toBe(200);
    await first.app.close();

    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(existsSync(`${file}.tmp`)).toBe(false);

    const warnings: string[] = [];
    const second = await start(warnings);
    expect(warnings).toEqual([]);
    expect(
      second.state
        .ledger()
        .users.map((user) => user.username)
        .sort(),
    ).toEqual(['alice_1', 'bob_2']);
    expect(await userInfo(second.app, aliceNow.accessToken)).toEqual({
      status: 200,
      code: 'ok',
      openId: alice.openId,
    });
    // The refresh token already rotated before the restart stays used up.
    const reused = await refresh(second.app, alice.refreshToken);
    expect(reused.json()).toMatchObject({ error: 'invalid_grant' });
    // Bob removed the app before the restart: his consent stays revoked.
    expect((await userInfo(second.app, bob.accessToken)).code).toBe('access_token_invalid');
    expect((await refresh(second.app, bob.refreshToken)).json()).toMatchObject({
      error: 'invalid_grant',
    });

    const refreshed = await refresh(second.app, aliceNow.refreshToken);
    expect(refreshed.statusCode).toBe(200);
    const aliceLater = tokensOf(refreshed.json());
    expect(aliceLater.openId).toBe(alice.openId);
    expect((await userInfo(second.app, aliceLater.accessToken)).code).toBe('ok');

    // A consent given after the restart gets its own grant: revoking it leaves Alice connected.
    const carol = await connect(second.app, 'carol_3');
    await revoke(second.app, carol.accessToken);
    expect((await userInfo(second.app, carol.accessToken)).code).toBe('access_token_invalid');
    expect((await userInfo(second.app, aliceLater.accessToken)).code).toBe('ok');
  });

  it('writes shortly after a change without waiting for close, and again on close', async () => {
    const { app } = await start();
    const alice = await connect(app, 'alice_1');
    const deadline = Date.now() + 5_000;
    while (!existsSync(file)) {
      if (Date.now() > deadline) throw new Error('the sandbox file was never written');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(readFileSync(file, 'utf8')).toContain(alice.refreshToken);

    const rotated = tokensOf((await refresh(app, alice.refreshToken)).json());
    await app.close();
    expect(readFileSync(file, 'utf8')).toContain(rotated.refreshToken);
  });

  it('starts empty on a missing file and writes nothing until something changes', async () => {
    const warnings: string[] = [];
    const { app, state } = await start(warnings);
    expect(state.ledger().users).toEqual([]);
    await app.close();
    expect(existsSync(file)).toBe(false);
    expect(warnings).toEqual([]);
  });

  it.each([
    ['not JSON', '{"version":1,"users":[{'],
    ['JSON of the wrong shape', JSON.stringify({ version: 1, users: 'alice', tokens: [] })],
  ])('starts empty, warns once and heals a file that is %s', async (_label, content) => {
    writeFileSync(file, content);
    const warnings: string[] = [];
    const { app, state } = await start(warnings);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(file);
    expect(state.ledger().users).toEqual([]);

    const alice = await connect(app, 'alice_1');
    await app.close();
    const second = await start();
    expect((await userInfo(second.app, alice.accessToken)).code).toBe('ok');
    expect(warnings).toHaveLength(1);
  });

  it('reports an unwritable file once and keeps serving', async () => {
    // The parent "directory" is a regular file, so every write fails.
    writeFileSync(path.join(dir, 'blocker'), '');
    file = path.join(dir, 'blocker', 'tiktok-sandbox.json');
    const warnings: string[] = [];
    const { app, state } = await start(warnings);
    const alice = await connect(app, 'alice_1');
    state.flush();
    await refresh(app, alice.refreshToken);
    state.flush();
    expect(warnings.filter((message) => message.includes('cannot save'))).toHaveLength(1);
    expect((await userInfo(app, alice.accessToken)).code).toBe('ok');
  });
});

describe('createPersistScheduler', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('coalesces changes into one delayed save and leaves no timer after flush', () => {
    vi.useFakeTimers();
    const save = vi.fn();
    const scheduler = createPersistScheduler({ delayMs: 200, save, warn: () => undefined });
    scheduler.schedule();
    scheduler.schedule();
    vi.advanceTimersByTime(199);
    expect(save).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(save).toHaveBeenCalledTimes(1);

    scheduler.schedule();
    expect(vi.getTimerCount()).toBe(1);
    scheduler.flush();
    expect(save).toHaveBeenCalledTimes(2);
    expect(vi.getTimerCount()).toBe(0);
    scheduler.flush();
    expect(save).toHaveBeenCalledTimes(2);
  });
});
