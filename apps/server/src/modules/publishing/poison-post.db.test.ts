// Regression (issue 9, item 1): a post whose publishing killed the worker came back after every
// restart (the sweep re-queues posts whose lease lapsed) and killed it again, forever. A worker
// that dies leaves only its claim; here each "run" claims the post as the real job does, then dies.
import { describe, expect, it } from 'vitest';
import { newLease } from '../../db/lease.ts';
import { MAX_JOB_ATTEMPTS } from '../../jobs/queue.ts';
import { createPublishingRepository } from './repository.ts';
import { usePublishingTestApp } from './test-kit.ts';

const kit = usePublishingTestApp();

describe('a post whose publishing kills the worker', () => {
  it('is failed as publisher_crashed after MAX_JOB_ATTEMPTS deaths, never posted nor re-queued again', async () => {
    const { db } = kit.t.context.database;
    const repository = createPublishingRepository(db);
    const id = await kit.duePostNobodyWakes('Poison post');
    for (let death = 1; death <= MAX_JOB_ATTEMPTS; death++) {
      expect(await repository.claim(id, newLease(60_000))).toBeDefined();
      // The process died: its lease lapses, and the restarted worker's sweep finds the post.
      await db
        .updateTable('posts')
        .set({ lease_until: new Date(Date.now() - 1000), wake_at: new Date(Date.now() - 1000) })
        .where('id', '=', id)
        .execute();
    }
    expect(await kit.publisher.advance(id)).toBe('failed');
    expect(await kit.postNamed(id)).toMatchObject({
      status: 'failed',
      failReason: 'publisher_crashed',
    });
    expect(kit.ledgerPostsTitled('Poison post')).toHaveLength(0);
    const row = await db
      .selectFrom('posts')
      .select(['wake_at', 'lease_owner'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.lease_owner).toBeNull();
    // Nothing brings it back: a sweep of everything overdue leaves it alone.
    expect(await kit.publisher.sweep(0)).toBe(0);
  });

  // Regression (chaos test): kills landing close together failed posts TikTok had already
  // published, as publisher_crashed: a retry would have posted them twice.
  it('never calls failed a post TikTok already has: its status checks back off instead', async () => {
    const { db } = kit.t.context.database;
    const repository = createPublishingRepository(db);
    const id = await kit.duePostNobodyWakes('Post TikTok has');
    await db
      .updateTable('posts')
      .set({ status: 'publishing', init_started_at: new Date(), publish_id: 'v_pub_file~kept' })
      .where('id', '=', id)
      .execute();
    for (let death = 1; death <= MAX_JOB_ATTEMPTS + 1; death++) {
      expect(await repository.claim(id, newLease(60_000))).toBeDefined();
      await db
        .updateTable('posts')
        .set({ lease_until: new Date(Date.now() - 1000), wake_at: new Date(Date.now() - 1000) })
        .where('id', '=', id)
        .execute();
    }
    const before = Date.now();
    expect(await kit.publisher.advance(id)).toBe('waiting');
    expect(await kit.postNamed(id)).toMatchObject({ status: 'publishing' });
    const row = await db
      .selectFrom('posts')
      .select(['wake_at', 'lease_owner', 'unfinished_runs'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.lease_owner).toBeNull();
    // Fifth run in a row: the second back-off step (2 minutes), and the count is kept.
    expect(row.wake_at.getTime()).toBeGreaterThanOrEqual(before + 2 * 60_000);
    expect(row.unfinished_runs).toBe(MAX_JOB_ATTEMPTS + 2);
    // The sweep does not bring it back before its time.
    expect(await kit.publisher.sweep(0)).toBe(0);
  });

  it('still publishes, exactly once, a post whose worker died fewer than MAX_JOB_ATTEMPTS times', async () => {
    const { db } = kit.t.context.database;
    const repository = createPublishingRepository(db);
    const id = await kit.duePostNobodyWakes('Survivor post');
    for (let death = 1; death < MAX_JOB_ATTEMPTS; death++) {
      expect(await repository.claim(id, newLease(60_000))).toBeDefined();
      await db
        .updateTable('posts')
        .set({ lease_until: new Date(Date.now() - 1000) })
        .where('id', '=', id)
        .execute();
    }
    // The real workers take it from here (the wake-up the sweep sends).
    expect(await kit.publisher.advance(id)).not.toBe('failed');
    const done = await kit.waitForStatus(id, ['completed', 'failed']);
    expect(done.status, done.failReason ?? '').toBe('completed');
    expect(kit.ledgerPostsTitled('Survivor post')).toHaveLength(1);
  });
});
