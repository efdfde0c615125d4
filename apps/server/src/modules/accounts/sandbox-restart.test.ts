import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startServer, type RunningServer } from '../../../../../e2e/support/server.ts';
import { copyPgliteDataDir } from '../../test-support/database.ts';
import { consent } from '../../tiktok/sandbox-test-kit.ts';

// Regression: in sandbox mode every connected account became 'reconnect_needed' after a restart,
// because the in-process sandbox forgot the tokens Cadence had stored.

let dataDir: string;
let server: RunningServer | undefined;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'cadence-sandbox-restart-'));
  // Migrated already, as the e2e servers' are: the restart is what this file is about, not initdb.
  await copyPgliteDataDir(dataDir);
});
afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

function sessionCookieOf(response: Response): string {
  const cookie = response.headers
    .getSetCookie()
    .map((header) => header.split(';')[0] ?? '')
    .find((pair) => pair.split('=')[0]?.endsWith('session_token') === true);
  if (cookie === undefined) throw new Error(`no session cookie (${response.status})`);
  return cookie;
}

async function call(
  running: RunningServer,
  cookie: string,
  method: 'GET' | 'POST',
  pathname: string,
  body?: object,
) {
  return fetch(`${running.url}${pathname}`, {
    method,
    headers: {
      cookie,
      origin: running.url,
      ...(body && { 'content-type': 'application/json' }),
    },
    ...(body && { body: JSON.stringify(body) }),
  });
}

async function accountStatus(running: RunningServer, cookie: string, id: string) {
  const response = await call(running, cookie, 'GET', '/api/accounts');
  expect(response.status).toBe(200);
  const { accounts } = z
    .object({ accounts: z.array(z.object({ id: z.string(), status: z.string() })) })
    .parse(await response.json());
  return accounts.find((account) => account.id === id)?.status;
}

describe('sandbox mode across a restart', () => {
  it('keeps a connected account working after the server restarts on the same DATA_DIR', async () => {
    server = await startServer({}, dataDir);
    const signUp = await fetch(`${server.url}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.url },
      body: JSON.stringify({ name: 'Maya', email: 'maya@example.com', password: 'secret123' }),
    });
    expect(signUp.status, await signUp.clone().text()).toBe(200);
    const cookie = sessionCookieOf(signUp);

    const added = await call(server, cookie, 'POST', '/api/accounts', { username: 'maya.creates' });
    expect(added.status).toBe(201);
    const { id } = z.object({ id: z.string() }).parse(await added.json());
    const started = await call(server, cookie, 'POST', `/api/accounts/${id}/connect`);
    expect(started.status).toBe(200);
    const { authorizeUrl } = z.object({ authorizeUrl: z.string() }).parse(await started.json());
    const outcome = await consent(authorizeUrl, { username: 'maya.creates' });
    const callback = await fetch(outcome.location, { headers: { cookie }, redirect: 'manual' });
    expect(callback.status).toBe(302);
    expect(callback.headers.get('location')).toBe(`/tiktok?connected=${id}`);
    expect(await accountStatus(server, cookie, id)).toBe('connected');

    await server.stop();
    server = undefined;
    // It holds live sandbox tokens: readable by the server's user only.
    expect(statSync(path.join(dataDir, 'tiktok-sandbox.json')).mode & 0o777).toBe(0o600);

    server = await startServer({}, dataDir);
    const info = await call(server, cookie, 'GET', `/api/accounts/${id}/creator-info`);
    expect(info.status, await info.clone().text()).toBe(200);
    expect(await info.json()).toMatchObject({ username: 'maya.creates', cannotPostReason: null });
    expect(await accountStatus(server, cookie, id)).toBe('connected');
    // Two starts of the real server on a data dir of its own (its first start runs initdb and every
    // migration) beside the other test files: a bound for a stuck start, not a target.
  }, 180_000);
});
