// The one queue mechanism (jobs/queue.ts) against real pg-boss on PGlite and PostgreSQL: a job that
// throws fails alone and, after MAX_JOB_ATTEMPTS, leaves its reason on its row; a malformed payload
// is dropped without retries; a queue runs at most its concurrency at once.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, signUpViaApi, type TestApp } from '../test-support/app.ts';
import { pollUntil } from '../tiktok/sandbox-test-kit.ts';
import { defineQueue, MAX_JOB_ATTEMPTS, type QueueSpec } from './queue.ts';

let t: TestApp;
let userId: string;

beforeAll(async () => {
  t = await createTestApp();
  await signUpViaApi(t.app, { email: 'queue@example.com' }, t.url);
  const user = await t.context.database.db
    .selectFrom('user')
    .select('id')
    .where('email', '=', 'queue@example.com')
    .executeTakeFirstOrThrow();
  userId = user.id;
}, 60_000);
afterAll(async () => {
  await t?.close();
});

/** A logger whose lines the test can read. */
function recordingLogger() {
  const lines: Record<string, unknown>[] = [];
  const logger = pino(
    { level: 'info' },
    {
      write(line: string) {
        lines.push(z.record(z.string(), z.unknown()).parse(JSON.parse(line)));
      },
    },
  );
  return { logger, lines };
}

async function jobStates(queue: string) {
  const result = await sql<{ id: string; state: string; retryCount: number; n: string | null }>`
    select id, state, retry_count as "retryCount", data->>'n' as n
    from pgboss.job where name = ${queue} order by created_on`.execute(t.context.database.db);
  return result.rows;
}

async function insertQueuedStory(): Promise<string> {
  const id = randomUUID();
  await t.context.database.db
    .insertInto('stories')
    .values({
      id,
      user_id: userId,
      top_media_id: null,
      bottom_media_id: null,
      mix_bottom_audio: false,
    })
    .execute();
  return id;
}

async function storyRow(id: string) {
  return t.context.database.db
    .selectFrom('stories')
    .select(['status', 'fail_reason'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

/** A queue of its own for one test: retried at once, so the test sees every attempt quickly. */
function testQueue<TPayload>(
  label: string,
  payload: z.ZodType<TPayload>,
  logFields?: QueueSpec<TPayload>['describe'],
) {
  return defineQueue({
    name: `test.${label}-${randomUUID()}`,
    payload,
    expireInSeconds: 60,
    retryDelaySeconds: 0,
    ...(logFields && { describe: logFields }),
  });
}

describe('the job queue mechanism', () => {
  it('drains a backlog without pausing between jobs, and starts a job sent in this process at once', async () => {
    const queue = testQueue('wakes', z.object({ v: z.literal(1), n: z.number() }));
    const ran: number[] = [];
    // A backlog waiting before the worker starts: one job per fetch, the next fetch at once.
    for (const n of [1, 2, 3]) await queue.send(t.context.boss, { v: 1, n });
    await queue.work(t.context.boss, pino({ level: 'silent' }), {
      concurrency: 1,
      // Far longer than the deadline below: only the local wake-up can start these jobs in time.
      pollingIntervalSeconds: 600,
      run: (payload) => {
        ran.push(payload.n);
        return Promise.resolve();
      },
    });
    await pollUntil(
      async () => ran.length,
      (count) => count === 3,
      { timeoutMs: 20_000 },
    );
    // Now idle (its last fetch found nothing): a send in this process wakes it.
    await queue.send(t.context.boss, { v: 1, n: 4 });
    await pollUntil(
      async () => ran.length,
      (count) => count === 4,
      { timeoutMs: 20_000 },
    );
    // The backlog's three in any order: pg-boss takes jobs by creation time, and PGlite's clock
    // reads whole milliseconds, so three sends within one tie (and go by their random ids). The
    // fourth, sent once they had run, after them.
    expect(ran.slice(0, 3).sort()).toEqual([1, 2, 3]);
    expect(ran[3]).toBe(4);
  });

  it('fails only the job that throws, and after MAX_JOB_ATTEMPTS tries records why on its row', async () => {
    const queue = testQueue(
      'throws',
      z.object({ v: z.literal(1), storyId: z.string(), n: z.number() }),
      (payload) => ({ storyId: payload.storyId }),
    );
    const { logger, lines } = recordingLogger();
    const doomed = await insertQueuedStory();
    const fine = await insertQueuedStory();
    const attempts = new Map<number, number>();
    await queue.work(t.context.boss, logger, {
      concurrency: { loops: 1, batchSize: 2 },
      pollingIntervalSeconds: 0.5,
      run: async (payload, job) => {
        attempts.set(payload.n, (attempts.get(payload.n) ?? 0) + 1);
        expect(job.attempt).toBe(attempts.get(payload.n));
        // A rejected promise, as any unexpected error in a handler would be.
        if (payload.n === 1) throw new Error('the render tool vanished');
        await t.context.database.db
          .updateTable('stories')
          .set({ status: 'completed' })
          .where('id', '=', payload.storyId)
          .execute();
      },
      giveUp: (payload) => t.context.storyRenderer.giveUp(payload.storyId),
    });
    await queue.send(t.context.boss, { v: 1, storyId: doomed, n: 1 });
    await queue.send(t.context.boss, { v: 1, storyId: fine, n: 2 });

    const states = await pollUntil(
      () => jobStates(queue.name),
      (rows) =>
        rows.length === 2 && rows.every((row) => ['completed', 'failed'].includes(row.state)),
      { timeoutMs: 30_000, intervalMs: 100 },
    );
    expect(states.map((row) => [row.n, row.state])).toEqual([
      ['1', 'failed'],
      ['2', 'completed'],
    ]);
    expect(attempts.get(1)).toBe(MAX_JOB_ATTEMPTS);
    expect(attempts.get(2)).toBe(1);
    // The user reads why (a translated reason), and nothing re-queues it any more.
    expect(await storyRow(doomed)).toEqual({
      status: 'failed',
      fail_reason: 'stories.failures.crashed',
    });
    expect(await storyRow(fine)).toMatchObject({ status: 'completed' });
    expect(await t.context.storyRenderer.recoverInterrupted()).toBe(0);
    // Each failure is logged with its context: queue, job, row and attempt.
    const failures = lines.filter((line) => line.storyId === doomed && line.level === 50);
    expect(failures.map((line) => line.attempt)).toEqual([1, 2, 3]);
    expect(failures[0]).toMatchObject({
      queue: queue.name,
      err: { message: 'the render tool vanished' },
    });
    expect(typeof failures[0]?.jobId).toBe('string');
  }, 60_000);

  it('drops a malformed payload at once, with a warning, and never retries it', async () => {
    const queue = testQueue('malformed', z.object({ v: z.literal(1), storyId: z.string() }));
    const { logger, lines } = recordingLogger();
    let handled = 0;
    await queue.work(t.context.boss, logger, {
      concurrency: 1,
      run: () => {
        handled += 1;
        return Promise.resolve();
      },
    });
    // What an older or foreign sender could leave in the queue: not the declared contract.
    await queue.ensure(t.context.boss);
    const jobId = await t.context.boss.send(queue.name, { v: 2, story: 42 });
    const [row] = await pollUntil(
      () => jobStates(queue.name),
      (rows) => rows[0]?.state === 'completed',
      { timeoutMs: 15_000, intervalMs: 100 },
    );
    expect(row).toMatchObject({ id: jobId, retryCount: 0 });
    expect(handled).toBe(0);
    const warning = lines.find((line) => line.msg === 'malformed job payload dropped');
    expect(warning).toMatchObject({ level: 40, queue: queue.name, jobId, attempt: 1 });
  }, 30_000);

  it('runs at most `concurrency` jobs of a queue at once in one process', async () => {
    const queue = testQueue('concurrency', z.object({ v: z.literal(1), n: z.number() }));
    let running = 0;
    let most = 0;
    const waiting: (() => void)[] = [];
    await queue.work(t.context.boss, pino({ level: 'silent' }), {
      concurrency: 3,
      pollingIntervalSeconds: 0.5,
      run: async () => {
        running += 1;
        most = Math.max(most, running);
        await new Promise<void>((resolve) => waiting.push(resolve));
        running -= 1;
      },
    });
    for (let n = 0; n < 9; n++) await queue.send(t.context.boss, { v: 1, n });
    let done = 0;
    while (done < 9) {
      // Every slot busy, then one freed at a time: never a fourth job while three are running.
      await pollUntil(
        () => Promise.resolve(waiting.length),
        (count) => count === Math.min(3, 9 - done),
        { timeoutMs: 10_000, intervalMs: 20 },
      );
      waiting.shift()?.();
      done += 1;
    }
    await pollUntil(
      () => jobStates(queue.name),
      (rows) => rows.filter((row) => row.state === 'completed').length === 9,
      { timeoutMs: 10_000, intervalMs: 100 },
    );
    expect(most).toBe(3);
  }, 60_000);
});
