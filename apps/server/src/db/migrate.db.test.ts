import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../test-support/database.ts';
import type { DatabaseHandle } from './client.ts';
import { listMigrations, migrate } from './migrate.ts';

let database: DatabaseHandle;
beforeAll(async () => {
  // Bare, so that the migrations themselves run (test databases otherwise start migrated).
  database = await openTestDatabase(undefined, { empty: true });
});
afterAll(() => database.close());

describe('migrations', () => {
  it('apply every versioned file once, in order, and are idempotent', async () => {
    const versions = listMigrations().map((m) => m.version);
    expect(versions).toEqual([...versions].sort((a, b) => a - b));
    expect(await migrate(database.db)).toEqual(versions);
    expect(await migrate(database.db)).toEqual([]);
    const rows = await database.db
      .selectFrom('schema_migrations')
      .select(['version'])
      .orderBy('version')
      .execute();
    expect(rows.map((r) => r.version)).toEqual(versions);
  });

  it('create the user table with Cadence defaults', async () => {
    await sql`insert into "user" (id, name, email, "emailVerified") values ('u1', 'Ana', 'ana@example.com', false)`.execute(
      database.db,
    );
    const user = await database.db
      .selectFrom('user')
      .selectAll()
      .where('id', '=', 'u1')
      .executeTakeFirstOrThrow();
    expect(user).toMatchObject({ isPro: false, preferredLanguage: 'fr' });
    expect(user.createdAt).toBeInstanceOf(Date);
    await expect(
      sql`update "user" set "preferredLanguage" = 'de' where id = 'u1'`.execute(database.db),
    ).rejects.toThrow();
  });

  it('roll a failed migration back entirely', async () => {
    const broken = [
      {
        version: 9999,
        name: 'broken',
        sql: 'create table half_done (id int); select no_such_function();',
      },
    ];
    await expect(migrate(database.db, broken)).rejects.toThrow();
    const table = await sql<{
      exists: boolean;
    }>`select to_regclass('half_done') is not null as exists`.execute(database.db);
    expect(table.rows[0]?.exists).toBe(false);
  });
});
