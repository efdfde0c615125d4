import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { z } from 'zod';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../e2e/support/server.ts';
import { openDatabase } from './db/client.ts';
import { copyPgliteDataDir } from './test-support/database.ts';
import { runAdminProcess, startServerProcess } from './test-support/server-process.ts';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cadence-admin-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const openPglite = () =>
  openDatabase({ databaseUrl: null, pgliteDataDir: path.join(dataDir, 'pgdata') });

async function isPro(email: string): Promise<boolean> {
  const database = await openPglite();
  try {
    const row = await database.db
      .selectFrom('user')
      .select('isPro')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    return row.isPro;
  } finally {
    await database.close();
  }
}

// PORT plays no part any more: the CLI finds a server from DATA_DIR alone.
const admin = (...args: string[]) =>
  runAdminProcess({ PATH: process.env.PATH, DATA_DIR: dataDir, PORT: '1' }, ...args);

describe('npm run admin -- pro', () => {
  it('grants and revokes Pro directly in the database when no server runs', async () => {
    // A data dir a server has migrated before (initdb and the migrations: seconds each time).
    await copyPgliteDataDir(dataDir);
    const database = await openPglite();
    await sql`insert into "user" (id, name, email, "emailVerified") values ('u1', 'Ana', 'ana@example.com', false)`.execute(
      database.db,
    );
    await database.close();

    const granted = await admin('pro', 'grant', 'ANA@example.com');
    expect(granted.stdout).toContain('ana@example.com is now Pro (in the database)');
    expect(await isPro('ana@example.com')).toBe(true);
    await admin('pro', 'revoke', 'ana@example.com');
    expect(await isPro('ana@example.com')).toBe(false);
  }, 180_000); // five processes each start PGlite: slow on a busy 2-core machine

  it('explains its usage and fails on unknown users', async () => {
    await expect(admin('pro', 'maybe', 'x@example.com')).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('Usage'),
    });
    await expect(admin('pro', 'grant', 'ghost@example.com')).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('No user with email'),
    });
  });

  it('changes nothing, and says who holds the database, when a process it cannot reach has it open', async () => {
    // This test process plays a server that does not answer (still starting, or an older build).
    const holder = await openPglite();
    try {
      await expect(admin('pro', 'grant', 'ana@example.com')).rejects.toMatchObject({
        code: 1,
        stderr: expect.stringMatching(
          new RegExp(`Nothing was changed: .* open in process ${process.pid} `),
        ) as unknown,
      });
    } finally {
      await holder.close();
    }
    expect(await isPro('ana@example.com')).toBe(false);
  });
});

describe('npm run admin while the server runs on PGlite', () => {
  const liveDir = mkdtempSync(path.join(os.tmpdir(), 'cadence-admin-live-'));
  afterAll(() => rmSync(liveDir, { recursive: true, force: true }));

  // Regression: with PORT unset in the operator's shell, the CLI found no server on the default
  // port, opened the live PGlite directory from a second process and said it had worked; the server
  // never saw the change, and the change was gone after the server's next restart.
  it('reaches the running server whatever PORT says, and nothing is lost across a restart', async () => {
    let server = await startServerProcess(liveDir, { WORKER: 'off' });
    try {
      const json = { origin: server.url, 'content-type': 'application/json' };
      const signUp = await fetch(`${server.url}/api/auth/sign-up/email`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ name: 'Ana', email: 'ana@example.com', password: 'secret123' }),
      });
      expect(signUp.status).toBe(200);
      const cookie = signUp.headers
        .getSetCookie()
        .map((value) => value.split(';')[0])
        .join('; ');
      const me = async () =>
        z
          .object({ isPro: z.boolean() })
          .parse(await (await fetch(`${server.url}/api/me`, { headers: { cookie } })).json());

      // The operator's shell: same DATA_DIR, a PORT where nothing listens.
      const granted = await runAdminProcess(
        { ...server.env, PORT: String(await freePort()) },
        'pro',
        'grant',
        'ana@example.com',
      );
      expect(granted.stdout).toContain('ana@example.com is now Pro (via the running server)');
      expect(await me()).toEqual({ isPro: true });

      for (let index = 0; index < 50; index += 1) {
        const added = await fetch(`${server.url}/api/accounts`, {
          method: 'POST',
          headers: { ...json, cookie },
          body: JSON.stringify({ username: `creator_${index}` }),
        });
        expect(added.status).toBe(201);
      }

      expect(await server.stop()).toBe(0);
      // A clean stop leaves neither the lock nor the socket behind.
      expect(existsSync(path.join(liveDir, 'pgdata.lock'))).toBe(false);
      expect(existsSync(path.join(liveDir, 'admin.sock'))).toBe(false);
      server = await startServerProcess(liveDir, { WORKER: 'off' });
      const accounts = z
        .object({ accounts: z.array(z.object({ username: z.string() })) })
        .parse(await (await fetch(`${server.url}/api/accounts`, { headers: { cookie } })).json());
      expect(accounts.accounts).toHaveLength(50);
      expect(await me()).toEqual({ isPro: true });
    } finally {
      await server.stop();
    }
  }, 180_000);

  it('does not start a second server on a data directory another process has open', async () => {
    const holder = await openDatabase({
      databaseUrl: null,
      pgliteDataDir: path.join(liveDir, 'pgdata'),
    });
    try {
      const refused = startServerProcess(liveDir, { WORKER: 'off' });
      await expect(refused).rejects.toThrow(/server exited \(1\)/);
      await expect(refused).rejects.toThrow(`is in use by process ${process.pid}`);
    } finally {
      await holder.close();
    }
  }, 120_000);
});
