// Prepared runs (decision 039): a pending post's run starts PREPARE_LEAD_MS before its due
// time, does everything up to creator_info, and waits for the due instant to send the video init. TikTok's side of the timing is read from the sandbox's ledger.
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { newLease } from '../../db/lease.ts';
import { pollUntil } from '../../tiktok/sandbox-test-kit.ts';
import { api } from '../schedules/test-kit.ts';
import { enqueuePublish } from './jobs.ts';
import { createTikTokDriver } from '../../tiktok/tiktok-driver.ts';
import { createPublisher } from './publisher.ts';
import type { PublisherDeps } from './publisher-context.ts';
import { createPublishingRepository } from './repository.ts';
import { CONFIRM_LEAD_MS } from './run-leads.ts';
import { usePublishingTestApp } from './test-kit.ts';

const kit = usePublishingTestApp();
const { ledgerPostsTitled, waitForStatus } = kit;

/** The phases a run goes through before it waits for the due time. */
const PREPARE_PHASES = [
  'status',
  'reserve',
  'claim',
  'dailyCap',
  'storage',
  'token',
  'creatorInfo',
];

/**
 * A post due in `inMs` that nobody wakes (its wake-up stays in 2099, nothing is announced): only
 * the test's own publisher runs it.
 */
async function postDueIn(title: string, inMs: number) {
  const id = await kit.duePostNobodyWakes(title);
  const dueAt = new Date(Date.now() + inMs);
  await kit.t.context.database.db
    .updateTable('posts')
    .set({ due_at: dueAt })
    .where('id', '=', id)
    .execute();
  return { id, dueAt };
}

function readRow(id: string) {
  return kit.t.context.database.db
    .selectFrom('posts')
    .select(['status', 'lease_owner', 'due_at', 'title', 'attempt', 'unfinished_runs'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

/**
 * A publisher of the test's own whose runs' timings (InitTimings) are kept; its wake-ups are
 * jobs. `overrides`: its repository and platform driver, to watch or delay their calls.
 */
function timedPublisher(overrides: Partial<Pick<PublisherDeps, 'repository' | 'driver'>> = {}) {
  const phases: Record<string, number>[] = [];
  /** How late each prepared init left after the instant it waited for. */
  const sentLate: (number | undefined)[] = [];
  const { context } = kit.t;
  const publisher = createPublisher({
    repository: createPublishingRepository(context.database.db),
    driver: createTikTokDriver(context.tiktok),
    tokens: context.tokens,
    storage: context.storage,
    wake: (postId, at) => enqueuePublish(context.boss, postId, at),
    logger: pino({ level: 'silent' }),
    onInitTimings: (timings) => {
      phases.push(timings.phases);
      sentLate.push(timings.sentLateMs);
    },
    ...overrides,
  });
  return { publisher, phases, sentLate };
}

/** Resolves once the run has prepared the post: leased, still pending. */
async function prepared(id: string) {
  const row = await pollUntil(
    () => readRow(id),
    (found) => found.lease_owner !== null,
    { timeoutMs: 5_000, intervalMs: 50 },
  );
  expect(row.status).toBe('pending');
  return row;
}

describe('prepared runs', () => {
  it('prepares a post before its due time and sends the video init at it, not before', async () => {
    const { id, dueAt } = await postDueIn('Prepared', 4_000);
    const { publisher, phases, sentLate } = timedPublisher();
    const started = Date.now();
    const running = publisher.advance(id);
    await prepared(id);
    // The creator still sees it pending; TikTok has heard nothing of it.
    expect((await kit.postNamed(id))?.status).toBe('pending');
    expect(ledgerPostsTitled('Prepared')).toHaveLength(0);
    expect(await running).toBe('waiting');
    const [sent, ...others] = ledgerPostsTitled('Prepared');
    expect(others).toHaveLength(0);
    expect(Date.parse(sent?.init_at ?? '')).toBeGreaterThanOrEqual(dueAt.getTime());
    // Everything up to creator_info was done before the due time, then the run waited.
    const timings = phases[0] ?? {};
    const preparedAt =
      started + PREPARE_PHASES.reduce((sum, phase) => sum + (timings[phase] ?? 0), 0);
    expect(preparedAt).toBeLessThanOrEqual(dueAt.getTime());
    expect(timings.creatorInfo).toBeGreaterThan(0);
    expect(timings.wait).toBeGreaterThan(0);
    // How late the init left after its due instant, for the benchmark: a quiet loop, on time.
    expect(sentLate[0]).toBeGreaterThanOrEqual(0);
    expect(sentLate[0]).toBeLessThan(1_000);
    expect((await waitForStatus(id, ['completed', 'failed'])).status).toBe('completed');
  });

  it('sends the inits due at one instant in rank order, whatever order their confirmations came back in, none before the due time, and uploads once all are answered', async () => {
    const { context } = kit.t;
    const { db } = context.database;
    // Two accounts, three posts each, all due at one instant.
    const accounts = [(await kit.freshAccount()).id, (await kit.freshAccount()).id];
    const posts: { id: string; title: string }[] = [];
    for (const [a, account] of accounts.entries()) {
      for (let n = 0; n < 3; n++) {
        const title = `Departure ${a}-${n}`;
        posts.push({ id: await kit.duePostNobodyWakes(title, account), title });
      }
    }
    const dueAt = new Date(Date.now() + 6_000);
    await db
      .updateTable('posts')
      .set({ due_at: dueAt })
      .where(
        'id',
        'in',
        posts.map(({ id }) => id),
      )
      .execute();
    const real = createPublishingRepository(db);
    const rankOfPost = new Map<string, number | undefined>();
    const sentTitles: string[] = [];
    /** TikTok's answers to the inits and the uploads, in the order they happened. */
    const traffic: ('answered' | 'upload')[] = [];
    const { publisher } = timedPublisher({
      repository: {
        ...real,
        // Each account's first init's confirmation comes back last (still before the due time).
        async confirmAndMarkInit(slot, postId, ...rest) {
          rankOfPost.set(postId, slot.rank);
          const answer = await real.confirmAndMarkInit(slot, postId, ...rest);
          if (answer.marked && slot.rank === 0) await new Promise((r) => setTimeout(r, 300));
          return answer;
        },
      },
      driver: createTikTokDriver({
        ...context.tiktok,
        async initDirectPost(token, init, options) {
          sentTitles.push(init.postInfo.title ?? '');
          const answer = await context.tiktok.initDirectPost(token, init, options);
          traffic.push('answered');
          return answer;
        },
        uploadChunk(uploadUrl, input) {
          traffic.push('upload');
          return context.tiktok.uploadChunk(uploadUrl, input);
        },
      }),
    });
    // Started one after another: each account's posts take ranks 0, 1, 2 in its window.
    const runs: Promise<unknown>[] = [];
    for (const { id } of posts) {
      runs.push(publisher.advance(id));
      await prepared(id);
    }
    expect(await Promise.all(runs)).toEqual(posts.map(() => 'waiting'));
    const rankOfTitle = new Map(posts.map(({ id, title }) => [title, rankOfPost.get(id)]));
    expect(sentTitles.map((title) => rankOfTitle.get(title))).toEqual([0, 0, 1, 1, 2, 2]);
    // The uploads waited until every init of the instant was answered.
    expect(traffic.slice(0, posts.length)).toEqual(posts.map(() => 'answered'));
    expect(traffic.filter((event) => event === 'upload')).toHaveLength(posts.length);
    for (const { title } of posts) {
      const [sent, ...others] = ledgerPostsTitled(title);
      expect(others).toHaveLength(0);
      expect(Date.parse(sent?.init_at ?? '')).toBeGreaterThanOrEqual(dueAt.getTime());
    }
  });

  it('confirms a prepared post just before its due time, sends it at the due instant and refuses edits from the confirmation on', async () => {
    const { id, dueAt } = await postDueIn('Confirmed ahead', 3_000);
    const { publisher, phases } = timedPublisher();
    const running = publisher.advance(id);
    await prepared(id);
    await pollUntil(
      () => readRow(id),
      (row) => row.status !== 'pending',
      { timeoutMs: 5_000, intervalMs: 20 },
    );
    // From the confirmation on, the creator's change is refused as for any post being published.
    const edited = await api(kit.t, kit.user.cookie, 'PATCH', `/api/posts/${id}`, {
      title: 'Too late',
    });
    expect(edited.statusCode).toBe(409);
    expect(await running).toBe('waiting');
    // Confirmed (its init marked as started) within CONFIRM_LEAD_MS before the due time…
    const { init_started_at: confirmedAt } = await kit.t.context.database.db
      .selectFrom('posts')
      .select('init_started_at')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(confirmedAt?.getTime()).toBeLessThan(dueAt.getTime());
    expect(confirmedAt?.getTime()).toBeGreaterThanOrEqual(dueAt.getTime() - CONFIRM_LEAD_MS - 50);
    // …and sent at the due instant, not before, once, as first written.
    const [sent, ...others] = ledgerPostsTitled('Confirmed ahead');
    expect(others).toHaveLength(0);
    expect(ledgerPostsTitled('Too late')).toHaveLength(0);
    expect(Date.parse(sent?.init_at ?? '')).toBeGreaterThanOrEqual(dueAt.getTime());
    expect(phases[0]?.wait).toBeGreaterThan(0);
    expect((await waitForStatus(id, ['completed', 'failed'])).status).toBe('completed');
  });

  it('does not publish a post rescheduled during the wait at its old time', async () => {
    const { id, dueAt } = await postDueIn('Rescheduled while prepared', 3_000);
    const { publisher } = timedPublisher();
    const running = publisher.advance(id);
    await prepared(id);
    const later = new Date(Date.now() + 3_600_000);
    const moved = await api(kit.t, kit.user.cookie, 'POST', `/api/posts/${id}/reschedule`, {
      dueAt: later.toISOString(),
    });
    // The creator's change is accepted as for any pending post.
    expect(moved.statusCode).toBe(200);
    expect(await running).toBe('changed');
    // It dropped out at its confirmation, CONFIRM_LEAD_MS before the due time.
    expect(Date.now()).toBeGreaterThanOrEqual(dueAt.getTime() - CONFIRM_LEAD_MS);
    expect(ledgerPostsTitled('Rescheduled while prepared')).toHaveLength(0);
    const row = await readRow(id);
    expect(row).toMatchObject({ status: 'pending', lease_owner: null, attempt: 0 });
    expect(row.due_at.getTime()).toBe(later.getTime());
  });

  it.each([
    {
      change: 'caption',
      title: 'Caption before',
      edit: { title: 'Caption after' },
      sentTitle: 'Caption after',
      sentPrivacy: 'PUBLIC_TO_EVERYONE',
    },
    {
      // The edit writes the schedule's settings; the post's own row names only its schedule.
      change: 'privacy alone',
      title: 'Privacy changed while prepared',
      edit: { privacyLevel: 'SELF_ONLY' },
      sentTitle: 'Privacy changed while prepared',
      sentPrivacy: 'SELF_ONLY',
    },
  ])(
    'publishes a post whose $change was edited during the wait once, as edited',
    async ({ title, edit, sentTitle, sentPrivacy }) => {
      const { id, dueAt } = await postDueIn(title, 3_000);
      const { publisher } = timedPublisher();
      const running = publisher.advance(id);
      await prepared(id);
      const edited = await api(kit.t, kit.user.cookie, 'PATCH', `/api/posts/${id}`, edit);
      expect(edited.statusCode).toBe(200);
      // The prepared run drops out at the due time; the post is woken again and goes as edited.
      expect(await running).toBe('changed');
      expect((await waitForStatus(id, ['completed', 'failed'])).status).toBe('completed');
      const titles = title === sentTitle ? [title] : [title, sentTitle];
      const [sent, ...others] = titles.flatMap((name) => ledgerPostsTitled(name));
      expect(others).toHaveLength(0);
      expect(sent?.post_info).toMatchObject({ title: sentTitle, privacy_level: sentPrivacy });
      expect(Date.parse(sent?.init_at ?? '')).toBeGreaterThanOrEqual(dueAt.getTime());
    },
  );

  it('does not publish a post cancelled during the wait', async () => {
    const { id, dueAt } = await postDueIn('Cancelled while prepared', 3_000);
    const { publisher } = timedPublisher();
    const running = publisher.advance(id);
    await prepared(id);
    const cancelled = await api(kit.t, kit.user.cookie, 'POST', `/api/posts/${id}/cancel`);
    expect(cancelled.statusCode).toBe(200);
    expect(await running).toBe('changed');
    // It dropped out at its confirmation, CONFIRM_LEAD_MS before the due time.
    expect(Date.now()).toBeGreaterThanOrEqual(dueAt.getTime() - CONFIRM_LEAD_MS);
    expect(ledgerPostsTitled('Cancelled while prepared')).toHaveLength(0);
    expect(await readRow(id)).toMatchObject({ status: 'cancelled', lease_owner: null });
  });

  it('publishes a post whose worker died during the wait once, after its lease ran out', async () => {
    const { id, dueAt } = await postDueIn('Prepared by a dead worker', 2_000);
    const { context } = kit.t;
    const repository = createPublishingRepository(context.database.db);
    // What a worker killed while waiting leaves: its init slot reserved, the post leased and
    // still pending (init_started_at is only set at the confirmation), no heartbeat.
    const account = await context.database.db
      .selectFrom('posts')
      .select('account_id')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    await repository.reserveInit(account.account_id ?? '');
    const claimed = await repository.claim(id, newLease(3_000), null, true);
    expect(claimed?.status).toBe('pending');
    // Its wake-ups find the post held: nothing is sent while the lease lasts.
    expect(await kit.publisher.advance(id)).toBe('busy');
    expect(ledgerPostsTitled('Prepared by a dead worker')).toHaveLength(0);
    // Once the lease has run out, the next wake-up publishes it, once.
    const outcome = await pollUntil(
      () => kit.publisher.advance(id),
      (found) => found !== 'busy',
      { timeoutMs: 15_000, intervalMs: 200 },
    );
    expect(outcome).toBe('waiting');
    expect((await waitForStatus(id, ['completed', 'failed'])).status).toBe('completed');
    const [sent, ...others] = ledgerPostsTitled('Prepared by a dead worker');
    expect(others).toHaveLength(0);
    expect(Date.parse(sent?.init_at ?? '')).toBeGreaterThanOrEqual(dueAt.getTime());
  });
});
