// Regression (chaos test flake, issue 9): a post in flight at three SIGKILLs landing close together
// looked like a post that kills its worker. Each kill counted one more unfinished run; past
// MAX_JOB_ATTEMPTS the post was quarantined (its next attempt 1, 2, 4 … minutes away, past the
// test's deadline) or, before its init, failed as publisher_crashed. A kill from outside takes
// down every post its process runs: deaths in company are now told apart from deaths alone
// (docs/decisions/033-kills-and-poison-posts.md).
//
// A worker that dies leaves its claim on the post and its registration in worker_processes,
// expired, with the number of posts it held at its last beat. Each death here is exactly that.
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { newLease } from '../../db/lease.ts';
import { MAX_JOB_ATTEMPTS } from '../../jobs/queue.ts';
import { registerWorkerProcess } from '../../jobs/worker-process.ts';
import { pollUntil } from '../../tiktok/sandbox-test-kit.ts';
import { createTikTokDriver } from '../../tiktok/tiktok-driver.ts';
import { createPublisher } from './publisher.ts';
import type { AdvanceOutcome } from './publisher-context.ts';
import { createPublishingRepository } from './repository.ts';
import { usePublishingTestApp } from './test-kit.ts';

const kit = usePublishingTestApp();
const logger = pino({ level: 'silent' });
const stops: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const stop of stops) await stop();
});

/**
 * One run of the post in a process that then dies: registered with `holding` posts at its last
 * beat (1: the post alone), the post claimed by it, then both leases lapsed. With `alive`, the
 * process lives on and only the run's lease lapsed (an abandoned job).
 */
async function dies(postId: string, holding: number, options: { alive?: boolean } = {}) {
  const { db } = kit.t.context.database;
  const processId = randomUUID();
  const lapsed = new Date(Date.now() - 1_000);
  await db
    .insertInto('worker_processes')
    .values({
      id: processId,
      holding,
      lease_until: options.alive === true ? new Date(Date.now() + 60_000) : lapsed,
    })
    .execute();
  const claimed = await createPublishingRepository(db).claim(postId, newLease(60_000), processId);
  expect(claimed).toBeDefined();
  await db.updateTable('posts').set({ lease_until: lapsed }).where('id', '=', postId).execute();
}

/** A publisher of its own, registered like a worker's, whose wake-ups only the test makes. */
async function registeredPublisher() {
  const { context } = kit.t;
  const workerProcess = await registerWorkerProcess(context.database.db, logger);
  stops.push(() => workerProcess.stop());
  const publisher = createPublisher({
    repository: createPublishingRepository(context.database.db),
    driver: createTikTokDriver(context.tiktok),
    tokens: context.tokens,
    storage: context.storage,
    wake: async () => undefined,
    logger,
    workerProcess,
  });
  return { publisher, workerProcess };
}

async function postRow(id: string) {
  return kit.t.context.database.db
    .selectFrom('posts')
    .select(['status', 'fail_reason', 'unfinished_runs', 'company_deaths', 'wake_at', 'publish_id'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

/** Advances the post with `publisher` until it is published (the test makes its wake-ups). */
async function publishWith(publisher: ReturnType<typeof createPublisher>, id: string) {
  const outcomes: AdvanceOutcome[] = [];
  await pollUntil(
    async () => {
      outcomes.push(await publisher.advance(id));
      return postRow(id);
    },
    (row) => row.status !== 'publishing' && row.status !== 'pending',
    { timeoutMs: 20_000, intervalMs: 300 },
  );
  return outcomes;
}

describe('a post killed from outside together with others', () => {
  it('is published at once after three kills in a row before its init, not failed as publisher_crashed', async () => {
    const id = await kit.duePostNobodyWakes('Killed three times before init');
    for (let kill = 1; kill <= MAX_JOB_ATTEMPTS; kill++) await dies(id, 5);
    const { publisher } = await registeredPublisher();
    await publishWith(publisher, id);
    expect(await postRow(id)).toMatchObject({ status: 'completed', fail_reason: null });
    expect(kit.ledgerPostsTitled('Killed three times before init')).toHaveLength(1);
  });

  it('is checked at once after three kills in a row once TikTok has it, not quarantined for minutes', async () => {
    const id = await kit.duePostNobodyWakes('Killed three times after init');
    const { publisher, workerProcess } = await registeredPublisher();
    // Init and upload: TikTok has the post; its status is to be polled.
    expect(await publisher.advance(id)).toBe('waiting');
    expect((await postRow(id)).publish_id).not.toBeNull();
    for (let kill = 1; kill <= MAX_JOB_ATTEMPTS + 1; kill++) await dies(id, 5);

    // It dies in company for the second time at least: it runs alone in its process (which says
    // so before the claim), at once; its status check lives, and the run counts start again.
    const { db } = kit.t.context.database;
    const before = Date.now();
    expect(await publisher.advance(id)).not.toBe('deferred');
    const checked = await postRow(id);
    expect(checked).toMatchObject({ unfinished_runs: 0, company_deaths: 0 });
    // Quarantined, its next check would be a minute or more away.
    expect(checked.wake_at.getTime()).toBeLessThan(Date.now() + 30_000);
    await publishWith(publisher, id);
    const registered = await db
      .selectFrom('worker_processes')
      .select('holding')
      .where('id', '=', workerProcess.id)
      .executeTakeFirstOrThrow();
    expect(registered.holding).toBeLessThanOrEqual(1);
    const row = await postRow(id);
    expect(row).toMatchObject({ status: 'completed', unfinished_runs: 0, company_deaths: 0 });
    expect(Date.now() - before).toBeLessThan(20_000);
    const sent = kit.ledgerPostsTitled('Killed three times after init');
    expect(sent).toHaveLength(1);
    expect(sent[0]?.status).toBe('PUBLISH_COMPLETE');
  });
});

describe('a post that kills its worker', () => {
  it('runs alone after two deaths in company, and is failed as publisher_crashed once it dies alone MAX_JOB_ATTEMPTS times', async () => {
    const id = await kit.duePostNobodyWakes('Poison among others');
    const repository = createPublishingRepository(kit.t.context.database.db);
    await dies(id, 40);
    expect(await repository.findStatus(id)).toMatchObject({ runs_alone: false });
    await dies(id, 40);
    // Its next claim makes it two deaths in company: from now on it runs alone.
    expect(await repository.findStatus(id)).toMatchObject({ runs_alone: true });
    for (let death = 1; death <= MAX_JOB_ATTEMPTS; death++) await dies(id, 1);
    const { publisher } = await registeredPublisher();
    expect(await publisher.advance(id)).toBe('failed');
    expect(await postRow(id)).toMatchObject({ status: 'failed', fail_reason: 'publisher_crashed' });
    expect(kit.ledgerPostsTitled('Poison among others')).toHaveLength(0);
    // Nothing brings it back.
    expect(await kit.publisher.sweep(0)).toBe(0);
  });

  it('counts runs abandoned by a live process (its lease lapsed, the process beat on) as its own', async () => {
    const id = await kit.duePostNobodyWakes('Abandoned in a busy process');
    for (let run = 1; run <= MAX_JOB_ATTEMPTS; run++) await dies(id, 30, { alive: true });
    const { publisher } = await registeredPublisher();
    expect(await publisher.advance(id)).toBe('failed');
    expect(await postRow(id)).toMatchObject({ status: 'failed', fail_reason: 'publisher_crashed' });
  });
});

describe('a post TikTok has, whose runs died alone MAX_JOB_ATTEMPTS times', () => {
  // Regression: the quarantine's wake-up quarantined it again without checking, every time
  // (each claim added a run): the post stayed 'publishing' forever.
  it('waits, then has its status checked once the wait is over', async () => {
    const id = await kit.duePostNobodyWakes('Quarantined then checked');
    const { publisher } = await registeredPublisher();
    expect(await publisher.advance(id)).toBe('waiting');
    for (let death = 1; death <= MAX_JOB_ATTEMPTS; death++) await dies(id, 1);
    const before = Date.now();
    expect(await publisher.advance(id)).toBe('waiting');
    const quarantined = await postRow(id);
    expect(quarantined.status).toBe('publishing');
    expect(quarantined.wake_at.getTime()).toBeGreaterThanOrEqual(before + 60_000);
    // Woken before its time (a stray wake-up): still waiting.
    expect(await publisher.advance(id)).toBe('waiting');
    // Its time has come.
    const { db } = kit.t.context.database;
    await db
      .updateTable('posts')
      .set({ wake_at: new Date(Date.now() - 1_000) })
      .where('id', '=', id)
      .execute();
    await publishWith(publisher, id);
    expect(await postRow(id)).toMatchObject({ status: 'completed', unfinished_runs: 0 });
    expect(kit.ledgerPostsTitled('Quarantined then checked')).toHaveLength(1);
  });
});
