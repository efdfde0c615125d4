import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/client.ts';
import { lockFileFor } from '../db/data-dir-lock.ts';
import { migrate } from '../db/migrate.ts';
import { copyPgliteDataDir, pgliteDataDirTemplate } from './database.ts';

// The e2e files start each server on a copy of this directory (e2e/support/server.ts).
describe('the migrated PGlite data directory the e2e servers start from', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cadence-data-dir-copy-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('holds pgdata alone (no lock file), and a copy opens with every migration applied', async () => {
    const template = await pgliteDataDirTemplate();
    expect(readdirSync(template)).toEqual(['pgdata']);

    await copyPgliteDataDir(dataDir);
    const pgdata = path.join(dataDir, 'pgdata');
    expect(existsSync(lockFileFor(pgdata))).toBe(false);
    const database = await openDatabase({ databaseUrl: null, pgliteDataDir: pgdata });
    try {
      await expect(migrate(database.db)).resolves.toEqual([]);
    } finally {
      await database.close();
    }
    // Never over a data directory that has one.
    await expect(copyPgliteDataDir(dataDir)).rejects.toThrow();
  });
});
