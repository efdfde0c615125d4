// Several worker processes starting at once on a database that lacks their queues (a first
// deployment, a release adding a queue): pg-boss creates each queue with DDL, which PostgreSQL
// could resolve as a deadlock, and the worker that lost exited at start-up. Every process must
// start, and every queue must exist once.
import { sql } from 'kysely';
import type PgBoss from 'pg-boss';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { DatabaseHandle } from '../db/client.ts';
import { openTestDatabase } from '../test-support/database.ts';
import { createBoss } from './boss.ts';
import { defineQueue } from './queue.ts';

const PROCESSES = 4;
const QUEUES = 12;
const ROUNDS = 2;

// Needs PostgreSQL: pg-boss instances with their own connection pools, as separate processes have.
describe('queues created by processes starting at once', () => {
  let database: DatabaseHandle & { url: string | null };
  const bosses: PgBoss[] = [];

  beforeAll(async () => {
    database = await openTestDatabase('postgres');
    const first = createBoss(database);
    first.on('error', () => undefined);
    await first.start();
    bosses.push(first);
    for (let i = 1; i < PROCESSES; i++) {
      const boss = createBoss(database);
      boss.on('error', () => undefined);
      await boss.start();
      bosses.push(boss);
    }
  }, 60_000);

  afterAll(async () => {
    for (const boss of bosses) await boss.stop({ graceful: false, wait: true });
    await database?.close();
  });

  it('starts every process and creates each queue once', async () => {
    const logger = pino({ level: 'silent' });
    for (let round = 0; round < ROUNDS; round++) {
      const queues = Array.from({ length: QUEUES }, (_, i) =>
        defineQueue({
          name: `test.concurrent-create-${round}-${i}`,
          payload: z.unknown(),
          expireInSeconds: 60,
          retryDelaySeconds: 1,
        }),
      );
      // Each "process" registers its handlers for all the queues at the same moment.
      const starts = bosses.map((boss) =>
        Promise.all(
          queues.map((queue) => queue.work(boss, logger, { concurrency: 1, run: async () => {} })),
        ),
      );
      const results = await Promise.allSettled(starts);
      const failures = results.flatMap((result) =>
        result.status === 'rejected' ? [String(result.reason)] : [],
      );
      expect(failures).toEqual([]);
    }
    const created = await sql<{ n: string }>`
      select count(*) as n from pgboss.queue where name like 'test.concurrent-create-%'`.execute(
      database.db,
    );
    expect(Number(created.rows[0]?.n)).toBe(QUEUES * ROUNDS);
  }, 120_000);
});
