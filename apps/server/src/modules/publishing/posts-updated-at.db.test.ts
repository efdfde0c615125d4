// posts.updated_at is kept by the database (migration 0030): any write that names a column of
// the post moves it, the run's own bookkeeping does not. A prepared run sends its post only if
// the mark is still the one its claim read (prepared-runs.db.test.ts: edits during the wait).
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { usePublishingTestApp } from './test-kit.ts';

const kit = usePublishingTestApp();

/**
 * Written by a post's run while its post may be pending and prepared, or kept by triggers: a
 * write naming only these leaves updated_at where it was. `id` and `created_at` are never
 * written after the insert.
 */
const RUN_COLUMNS = [
  'id',
  'created_at',
  'updated_at',
  'outcome_at',
  'attempt',
  'unfinished_runs',
  'run_process',
  'company_deaths',
  'lease_owner',
  'lease_until',
  'wake_at',
  'init_started_at',
  'publish_id',
  'upload_url',
  'upload_url_expires_at',
  'video_size',
  'chunk_size',
  'total_chunk_count',
  'uploaded_bytes',
  'poll_count',
  'post_id_checks',
];

async function updatedAtOf(id: string): Promise<string> {
  const row = await kit.t.context.database.db
    .selectFrom('posts')
    .select(sql<string>`updated_at::text`.as('mark'))
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return row.mark;
}

describe('posts.updated_at', () => {
  it('moves with every write that names a column of the post, and only with those', async () => {
    const { db } = kit.t.context.database;
    const { rows: columns } = await sql<{ name: string }>`select column_name as name
      from information_schema.columns where table_name = 'posts'`.execute(db);
    const { rows: touching } = await sql<{ name: string }>`select a.attname as name
      from pg_trigger t
        join pg_attribute a on a.attrelid = t.tgrelid and a.attnum = any(t.tgattr::int2[])
      where t.tgname = 'posts_updated_at'`.execute(db);
    const touchingNames = touching.map(({ name }) => name);
    // A new column is either the post's (the trigger names it) or the run's (RUN_COLUMNS).
    expect(
      columns
        .map(({ name }) => name)
        .filter((name) => !RUN_COLUMNS.includes(name) && !touchingNames.includes(name)),
    ).toEqual([]);
    expect(touchingNames.filter((name) => RUN_COLUMNS.includes(name))).toEqual([]);

    const id = await kit.duePostNobodyWakes('Marked by its writes');
    const before = await updatedAtOf(id);
    // The run's bookkeeping (a claim's lease and counters): unmoved.
    await db
      .updateTable('posts')
      .set({ lease_until: sql`clock_timestamp()`, attempt: sql`attempt + 1` })
      .where('id', '=', id)
      .execute();
    expect(await updatedAtOf(id)).toBe(before);
    // A write naming the post's schedule, even with the same value: moved.
    await db
      .updateTable('posts')
      .set({ schedule_id: sql`schedule_id` })
      .where('id', '=', id)
      .execute();
    const afterSchedule = await updatedAtOf(id);
    expect(afterSchedule).not.toBe(before);
    await db.updateTable('posts').set({ title: 'Marked again' }).where('id', '=', id).execute();
    expect(await updatedAtOf(id)).not.toBe(afterSchedule);
  });
});
