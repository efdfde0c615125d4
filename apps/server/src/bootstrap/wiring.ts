import type PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { DatabaseHandle } from '../db/client.ts';

/** What every wiring step builds on: the configuration, the log, the database and its queue. */
export interface Wiring {
  config: Config;
  logger: Logger;
  database: DatabaseHandle;
  boss: PgBoss;
}
