import { sql, type Expression, type RawBuilder } from 'kysely';
import { BOSS_SCHEMA } from './boss.ts';

/**
 * A row this old whose job pg-boss no longer holds is orphaned: its job is queued right after the
 * row is inserted, and while it waits, retries or runs it stays live.
 */
const ORPHAN_GRACE_MS = 10 * 60_000;

/**
 * WHERE: pg-boss holds no job of `queue` keyed `singletonKey` (the row's id, sent as the job's
 * singletonKey) that is queued, waiting for its retry or running. The row's work will never be
 * finished: its last attempt expired with a killed worker (pg-boss fails it by timeout, without
 * the queue's give-up), or its job was never queued.
 */
export function noLiveJob(queue: string, singletonKey: Expression<unknown>): RawBuilder<boolean> {
  return sql<boolean>`not exists (select 1 from ${sql.table(`${BOSS_SCHEMA}.job`)}
    where name = ${queue} and singleton_key = (${singletonKey})::text
    and state in ('created', 'retry', 'active'))`;
}

/**
 * The periodic sweep for rows no job will finish: `orphaned` lists those created before the
 * cutoff it is given (now minus ORPHAN_GRACE_MS) with `noLiveJob`, and each is given up as the
 * queue's give-up would have, so it reaches its final state and says why. Returns how many.
 */
export async function giveUpOrphans(
  orphaned: (createdBefore: Date) => Promise<readonly { id: string }[]>,
  giveUp: (id: string, error: Error) => Promise<void>,
  now: Date = new Date(),
): Promise<number> {
  const rows = await orphaned(new Date(now.getTime() - ORPHAN_GRACE_MS));
  for (const row of rows) await giveUp(row.id, new Error('its job stopped without finishing'));
  return rows.length;
}
