import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.ts';

const migrationsDir = path.join(import.meta.dirname, 'migrations');

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** Migrations are `NNNN-name.sql` files, applied in order, each in its own transaction, once. */
export function listMigrations(dir = migrationsDir): Migration[] {
  return readdirSync(dir)
    .filter((file) => /^\d{4}-[\w-]+\.sql$/.test(file))
    .sort()
    .map((file) => ({
      version: Number(file.slice(0, 4)),
      name: file.slice(5, -4),
      sql: readFileSync(path.join(dir, file), 'utf8'),
    }));
}

export async function migrate(
  db: Kysely<Database>,
  migrations = listMigrations(),
): Promise<number[]> {
  await sql`create table if not exists schema_migrations (
    version integer primary key,
    name text not null,
    applied_at timestamptz not null default now()
  )`.execute(db);
  const applied: number[] = [];
  for (const migration of migrations) {
    await db.transaction().execute(async (trx) => {
      // Several processes may start at once on PostgreSQL: the advisory lock lets one migrate.
      await sql`select pg_advisory_xact_lock(7245101)`.execute(trx);
      const done = await trx
        .selectFrom('schema_migrations')
        .select('version')
        .where('version', '=', migration.version)
        .executeTakeFirst();
      if (done) return;
      await sql.raw(migration.sql).execute(trx);
      await trx
        .insertInto('schema_migrations')
        .values({ version: migration.version, name: migration.name })
        .execute();
      applied.push(migration.version);
    });
  }
  return applied;
}
