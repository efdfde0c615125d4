// Confirmations in batches (decision 039): prepared runs due at the same instant in one process
// confirm their init slots and mark their posts in one statement, each run answered as if alone;
// their answers settle the slots and record the publish ids in one statement too. TikTok's side is read from the
// sandbox's ledger.
import { sql, ValueNode, type KyselyPlugin, type RootOperationNode } from 'kysely';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { pollUntil } from '../../tiktok/sandbox-test-kit.ts';
import { api } from '../schedules/test-kit.ts';
import { enqueuePublish } from './jobs.ts';
import { createTikTokDriver } from '../../tiktok/tiktok-driver.ts';
import { createPublisher } from './publisher.ts';
import { createPublishingRepository } from './repository.ts';
import { usePublishingTestApp } from './test-kit.ts';

const kit = usePublishingTestApp();
const { ledgerPostsTitled, waitForStatus } = kit;

/** A batch statement of the repository's (its CTE names say which): its items, else null. */
function batchItems(node: RootOperationNode, cte: string): number | null {
  if (node.kind !== 'RawNode' || !node.sqlFragments.some((part) => part.includes(cte))) {
    return null;
  }
  // Its first value (the statement's prepared() mark is a node before it).
  const input = node.parameters.find((parameter) => ValueNode.is(parameter));
  const json = input !== undefined && ValueNode.is(input) ? input.value : '[]';
  return (JSON.parse(String(json)) as unknown[]).length;
}

/**
 * Counts the confirmation statements a repository sends (`statements`: the posts each carried)
 * and its settles (`settles`), and makes the next `failing` confirmations fail: before they
 * reach the database, or after it answered.
 */
function watchedDatabase() {
  const statements: number[] = [];
  const settles: number[] = [];
  const failing = { before: 0, after: 0 };
  const failed = new Set<unknown>();
  const plugin: KyselyPlugin = {
    transformQuery({ node, queryId }) {
      const settled = batchItems(node, 'recorded as (');
      if (settled !== null) settles.push(settled);
      const items = batchItems(node, 'marked as (');
      if (items === null) return node;
      statements.push(items);
      if (failing.before > 0) {
        failing.before -= 1;
        throw new Error('injected: connection refused before the statement');
      }
      if (failing.after > 0) {
        failing.after -= 1;
        failed.add(queryId);
      }
      return node;
    },
    async transformResult({ queryId, result }) {
      if (failed.delete(queryId)) throw new Error('injected: connection lost after the commit');
      return result;
    },
  };
  return { db: kit.t.context.database.db.withPlugin(plugin), statements, settles, failing };
}

/** A publisher over `db` whose wake-ups are jobs (run by the app's own workers). */
function publisherOn(db: ReturnType<typeof watchedDatabase>['db']) {
  const { context } = kit.t;
  return createPublisher({
    // A window long enough that runs resuming a few milliseconds apart share a statement.
    repository: createPublishingRepository(db, {
      confirmBatch: { windowMs: 300 },
      settleBatch: { windowMs: 300 },
    }),
    driver: createTikTokDriver(context.tiktok),
    tokens: context.tokens,
    storage: context.storage,
    wake: (postId, at) => enqueuePublish(context.boss, postId, at),
    logger: pino({ level: 'silent' }),
    retryDelayCapMs: 300,
  });
}

/**
 * `count` posts of their own accounts (or all of `accountId`), all due at the same instant `inMs`
 * from now.
 */
async function postsDueTogether(prefix: string, count: number, inMs: number, accountId?: string) {
  const ids: string[] = [];
  for (let index = 0; index < count; index++) {
    ids.push(await kit.duePostNobodyWakes(`${prefix} ${index}`, accountId));
  }
  const dueAt = new Date(Date.now() + inMs);
  await kit.t.context.database.db
    .updateTable('posts')
    .set({ due_at: dueAt })
    .where('id', 'in', ids)
    .execute();
  return { ids, dueAt };
}

function readRow(id: string) {
  return kit.t.context.database.db
    .selectFrom('posts')
    .select(['status', 'lease_owner', 'init_started_at', 'publish_id'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

/** Resolves once every run has prepared its post: leased, still pending. */
async function allPrepared(ids: string[]) {
  await pollUntil(
    () => Promise.all(ids.map(readRow)),
    (rows) => rows.every((row) => row.lease_owner !== null && row.status === 'pending'),
    { timeoutMs: 8_000, intervalMs: 50 },
  );
}

describe('confirmations of prepared runs in batches', () => {
  it('confirms posts due at the same instant in one statement, each answered as if alone', async () => {
    const { ids, dueAt } = await postsDueTogether('Batched', 5, 5_000);
    const [edited, cancelled, ...untouched] = ids as [string, string, ...string[]];
    const watched = watchedDatabase();
    const publisher = publisherOn(watched.db);
    const running = ids.map((id) => publisher.advance(id));
    await allPrepared(ids);
    // The creator changes two of them during the wait, as any pending post.
    const patched = await api(kit.t, kit.user.cookie, 'PATCH', `/api/posts/${edited}`, {
      title: 'Batched edited',
    });
    expect(patched.statusCode).toBe(200);
    const dropped = await api(kit.t, kit.user.cookie, 'POST', `/api/posts/${cancelled}/cancel`);
    expect(dropped.statusCode).toBe(200);
    const outcomes = await Promise.all(running);
    expect(outcomes).toEqual(['changed', 'changed', ...untouched.map(() => 'waiting')]);
    // Five confirmations at the due instant, one statement (a single call each sent five).
    expect(watched.statements).toEqual([5]);
    // The untouched posts went once each, at or after their due time.
    for (const [index, id] of ids.entries()) {
      if (id === edited || id === cancelled) continue;
      const sent = ledgerPostsTitled(`Batched ${index}`);
      expect(sent).toHaveLength(1);
      expect(Date.parse(sent[0]?.init_at ?? '')).toBeGreaterThanOrEqual(dueAt.getTime());
      expect((await waitForStatus(id, ['completed', 'failed'])).status).toBe('completed');
    }
    // The edited one goes as edited, once, woken again at its time; the cancelled one never.
    expect((await waitForStatus(edited, ['completed', 'failed'])).status).toBe('completed');
    expect(ledgerPostsTitled('Batched 0')).toHaveLength(0);
    expect(ledgerPostsTitled('Batched edited')).toHaveLength(1);
    expect(ledgerPostsTitled('Batched 1')).toHaveLength(0);
    expect(await readRow(cancelled)).toMatchObject({ status: 'cancelled', lease_owner: null });
  });

  it("confirms one account's posts due together in one statement, each on a slot of its own", async () => {
    const { id: accountId } = await kit.freshAccount();
    const { ids, dueAt } = await postsDueTogether('Same account', 4, 5_000, accountId);
    const watched = watchedDatabase();
    const publisher = publisherOn(watched.db);
    const running = ids.map((id) => publisher.advance(id));
    await allPrepared(ids);
    expect(await Promise.all(running)).toEqual(ids.map(() => 'waiting'));
    // One statement: batches out at once never hold the same account's row (they would wait
    // for each other's lock; one per slot, four statements, is what it was).
    expect(watched.statements).toEqual([4]);
    const pacing = await kit.t.context.database.db
      .selectFrom('tiktok_init_pacing')
      .select(sql<string[]>`recent_inits::text[]`.as('stamps'))
      .where('account_id', '=', accountId)
      .executeTakeFirstOrThrow();
    // Four slots, four stamps, none the same (a slot is named by its stamp), settled with the
    // four answers and their publish ids in one statement.
    expect(new Set(pacing.stamps).size).toBe(4);
    expect(watched.settles).toEqual([4]);
    for (const [index, id] of ids.entries()) {
      const sent = ledgerPostsTitled(`Same account ${index}`);
      expect(sent).toHaveLength(1);
      expect(Date.parse(sent[0]?.init_at ?? '')).toBeGreaterThanOrEqual(dueAt.getTime());
      expect((await waitForStatus(id, ['completed', 'failed'])).status).toBe('completed');
    }
  });

  for (const when of ['before', 'after'] as const) {
    it(`retries every post of a batch whose statement failed ${when} reaching the database, and publishes each once`, async () => {
      const prefix = `Failed batch ${when}`;
      const { ids } = await postsDueTogether(prefix, 3, 4_000);
      const watched = watchedDatabase();
      watched.failing[when] = 1;
      const publisher = publisherOn(watched.db);
      const running = ids.map((id) =>
        publisher.advance(id).then((outcome) => ({ outcome, at: Date.now() })),
      );
      await allPrepared(ids);
      // Each run gets the statement's error, as a statement of its own would have given it.
      const ended = await Promise.all(running);
      expect(ended.map((run) => run.outcome)).toEqual(ids.map(() => 'retrying'));
      expect(watched.statements[0]).toBe(3);
      for (const [index, id] of ids.entries()) {
        // Retried (the app's workers run the wake-up, 300 ms later): published once, by the
        // retry; nothing was sent on the confirmation that failed.
        expect((await waitForStatus(id, ['completed', 'failed'])).status).toBe('completed');
        const sent = ledgerPostsTitled(`${prefix} ${index}`);
        expect(sent).toHaveLength(1);
        expect(Date.parse(sent[0]?.init_at ?? '')).toBeGreaterThanOrEqual(ended[index]?.at ?? 0);
      }
    });
  }
});
