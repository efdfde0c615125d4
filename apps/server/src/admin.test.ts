import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from './db/client.ts';
import { migrate } from './db/migrate.ts';

const run = promisify(execFile);
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cadence-admin-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function isPro(email: string): Promise<boolean> {
  const database = await openDatabase({
    databaseUrl: null,
    pgliteDataDir: path.join(dataDir, 'pgdata'),
  });
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

function admin(...args: string[]) {
  // A port nobody listens on: the CLI must fall back to opening the PGlite database itself.
  return run(
    process.execPath,
    ['--import', 'tsx', path.join(import.meta.dirname, 'admin.ts'), ...args],
    {
      env: { PATH: process.env.PATH, DATA_DIR: dataDir, PORT: '1' },
    },
  );
}

describe('npm run admin -- pro', () => {
  it('grants and revokes Pro directly in the database when no server runs', async () => {
    const database = await openDatabase({
      databaseUrl: null,
      pgliteDataDir: path.join(dataDir, 'pgdata'),
    });
    await migrate(database.db);
    await sql`insert into "user" (id, name, email, "emailVerified") values ('u1', 'Ana', 'ana@example.com', false)`.execute(
      database.db,
    );
    await database.close();

    const granted = await admin('pro', 'grant', 'ANA@example.com');
    expect(granted.stdout).toContain('ana@example.com is now Pro');
    expect(await isPro('ana@example.com')).toBe(true);
    await admin('pro', 'revoke', 'ana@example.com');
    expect(await isPro('ana@example.com')).toBe(false);
  });

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
});
