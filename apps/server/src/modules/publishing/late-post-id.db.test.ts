// TikTok answers PUBLISH_COMPLETE before moderation lets the post's public id out; Cadence marks
// the post published and keeps asking for the id (docs/decisions/031-media-transfer.md).
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { BOSS_SCHEMA } from '../../jobs/boss.ts';
import { pollUntil } from '../../tiktok/sandbox-test-kit.ts';
import { PUBLISH_QUEUE } from './jobs.ts';
import { usePublishingTestApp } from './test-kit.ts';

// Long enough that the poll which sees PUBLISH_COMPLETE (1.5 s of processing, polls at 1 s then
// 3 s after the upload) comes before the id; the id checks then run every 300 ms (the test cap).
const kit = usePublishingTestApp({ TIKTOK_SANDBOX_POST_ID_DELAY_MS: '4000' });

const HOUR_MS = 3_600_000;

async function postRow(id: string) {
  return kit.t.context.database.db
    .selectFrom('posts')
    .select(['status', 'tiktok_post_id', 'post_id_checks', 'published_at'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

/**
 * Waits until the post's id has come and nothing will wake the post any more: no run holds its
 * lease and no pg-boss job for it is left (each check plans its successor by timer and by a
 * fallback job JOB_FALLBACK_MS later, which still runs after the timer's run found the id). A
 * test that re-arms the post and calls `advance` itself must not meet that job's run.
 */
async function untilIdLinkedAndQuiet(id: string) {
  await pollUntil(
    async () => {
      const jobs = await sql<{ count: string }>`
        select count(*) as count from ${sql.table(`${BOSS_SCHEMA}.job`)}
        where name = ${PUBLISH_QUEUE} and data->>'postId' = ${id}
          and state in ('created', 'retry', 'active')`.execute(kit.t.context.database.db);
      const row = await kit.t.context.database.db
        .selectFrom('posts')
        .select(['tiktok_post_id', 'lease_owner'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      return { ...row, jobs: Number(jobs.rows[0]?.count ?? 0) };
    },
    (state) => state.tiktok_post_id !== null && state.lease_owner === null && state.jobs === 0,
    { timeoutMs: 15_000, intervalMs: 200 },
  );
}

/** Publishes a post and waits until its id has come and no check of it is left queued. */
async function publishedWithId(title: string) {
  const { post } = await kit.publishNow(title);
  await kit.waitForStatus(post.id, ['completed']);
  await untilIdLinkedAndQuiet(post.id);
  const [ledgerPost] = kit.ledgerPostsTitled(title);
  return { id: post.id, publishId: ledgerPost?.publish_id ?? '' };
}

/** A published post whose id is awaited again, as of `publishedAgoMs` ago, its check due now. */
async function awaitIdAgain(id: string, publishedAgoMs: number) {
  await kit.t.context.database.db
    .updateTable('posts')
    .set({
      tiktok_post_id: null,
      post_id_checks: 3,
      published_at: new Date(Date.now() - publishedAgoMs),
      wake_at: new Date(Date.now() - 1_000),
    })
    .where('id', '=', id)
    .execute();
}

describe('late public post ids', () => {
  it('marks the post published without an id, then links it once moderation lets the id out', async () => {
    const { post } = await kit.publishNow('Late id #moderation');
    const done = await kit.waitForStatus(post.id, ['completed', 'failed']);
    expect(done.status, done.failReason ?? '').toBe('completed');
    expect(done.tiktokPostId).toBeNull();
    expect(done.tiktokPostUrl).toBeNull();
    expect((await postRow(post.id)).post_id_checks).not.toBeNull();

    const linked = await pollUntil(
      () => kit.postNamed(post.id),
      (found) => found?.tiktokPostId !== null,
      { timeoutMs: 15_000, intervalMs: 200 },
    );
    const [published] = kit.ledgerPostsTitled('Late id #moderation');
    expect(linked?.tiktokPostId).toBe(published?.post_ids[0]);
    expect(linked?.tiktokPostUrl).toContain(`/video/${published?.post_ids[0]}`);
    expect(await postRow(post.id)).toMatchObject({ status: 'completed', post_id_checks: null });
  });

  it('looks for no id for a post only its creator sees (TikTok never gives one)', async () => {
    const { post } = await kit.publishNow('Private late id', { privacyLevel: 'SELF_ONLY' });
    const done = await kit.waitForStatus(post.id, ['completed', 'failed']);
    expect(done.status, done.failReason ?? '').toBe('completed');
    expect(await postRow(post.id)).toMatchObject({ tiktok_post_id: null, post_id_checks: null });
  });

  it('keeps polling through a status value TikTok may add, instead of failing the post', async () => {
    const { post } = await kit.publishNow('Unknown status');
    const [ledgerPost] = await pollUntil(
      async () => kit.ledgerPostsTitled('Unknown status'),
      (posts) => posts.length > 0,
    );
    const publishId = ledgerPost?.publish_id ?? '';
    kit.sandbox().control.answerStatus(publishId, 'PROCESSING_MODERATION', 2);
    const done = await kit.waitForStatus(post.id, ['completed', 'failed'], 30_000);
    expect(done.status, done.failReason ?? '').toBe('completed');
    expect(kit.sandbox().posts.find(publishId)?.statusOverride?.remaining).toBe(0);
  });

  it('stops looking 72 h after publishing, and when TikTok says the post failed after all', async () => {
    const { id, publishId } = await publishedWithId('Given up id');
    const post = { id };

    // Still within 72 h and no id yet: the next check is planned (and finds the id).
    kit.sandbox().control.answerStatus(publishId, 'PROCESSING_MODERATION', 1);
    await awaitIdAgain(post.id, 71 * HOUR_MS);
    await expect(kit.publisher.advance(post.id)).resolves.toBe('post_id_pending');
    expect((await postRow(post.id)).post_id_checks).toBe(4);
    await untilIdLinkedAndQuiet(post.id);

    kit.sandbox().control.answerStatus(publishId, 'PROCESSING_MODERATION', 1);
    await awaitIdAgain(post.id, 73 * HOUR_MS);
    await expect(kit.publisher.advance(post.id)).resolves.toBe('post_id_given_up');
    expect(await postRow(post.id)).toMatchObject({
      status: 'completed',
      tiktok_post_id: null,
      post_id_checks: null,
    });

    kit.sandbox().control.failPost(publishId, 'publish_cancelled');
    await awaitIdAgain(post.id, HOUR_MS);
    await expect(kit.publisher.advance(post.id)).resolves.toBe('post_id_given_up');
    expect(await postRow(post.id)).toMatchObject({ status: 'completed', post_id_checks: null });
    // Nothing left to do: a late wake-up changes nothing.
    await expect(kit.publisher.advance(post.id)).resolves.toBe('not_ready');
  });

  it('leaves a check whose lease another worker holds, and takes it once that lease lapsed', async () => {
    const post = { id: (await publishedWithId('Leased id check')).id };
    await awaitIdAgain(post.id, HOUR_MS);
    const { db } = kit.t.context.database;
    // A worker that claimed the check and died: its lease runs on for a while.
    await db
      .updateTable('posts')
      .set({ lease_owner: 'dead-worker', lease_until: new Date(Date.now() + 60_000) })
      .where('id', '=', post.id)
      .execute();
    await expect(kit.publisher.advance(post.id)).resolves.toBe('busy');
    // The sweep wakes it again once the lease has lapsed.
    await db
      .updateTable('posts')
      .set({ lease_until: new Date(Date.now() - 1_000), wake_at: new Date(Date.now() - 120_000) })
      .where('id', '=', post.id)
      .execute();
    await expect(kit.publisher.sweep(60_000)).resolves.toBeGreaterThanOrEqual(1);
    const linked = await pollUntil(
      () => postRow(post.id),
      (row) => row.tiktok_post_id !== null,
      { timeoutMs: 15_000, intervalMs: 200 },
    );
    expect(linked.post_id_checks).toBeNull();
  });
});
