import PgBoss from 'pg-boss';
import type { DatabaseHandle } from '../db/client.ts';

/** pg-boss's tables live in this schema; queue creation (queue.ts) names it in its SQL. */
export const BOSS_SCHEMA = 'pgboss';

/** pg-boss on the application's database: PostgreSQL through its own pool, PGlite through ours. */
export function createBoss(database: DatabaseHandle): PgBoss {
  const options: PgBoss.ConstructorOptions = {
    schema: BOSS_SCHEMA,
    // Maintenance (archiving, expiring) runs in whichever process has supervise on.
    supervise: true,
    migrate: true,
  };
  if (database.connectionString) {
    return new PgBoss({ ...options, connectionString: database.connectionString, max: 5 });
  }
  return new PgBoss({ ...options, db: { executeSql: database.executeSql } });
}
