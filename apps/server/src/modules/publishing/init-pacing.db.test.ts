// TikTok's 6 video inits per minute per token (sliding window), with several publishers at once
// (docs/decisions/039-publishing-precision.md): the reservation is taken in the database, so no
// publisher, in this process or another, can make TikTok answer rate_limit_exceeded.
import { sql, ValueNode, type Kysely, type RawBuilder } from 'kysely';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../db/client.ts';
import type { CoalescerOptions } from '../../lib/coalescer.ts';
import type { Database } from '../../db/schema.ts';
import { pollUntil } from '../../tiktok/sandbox-test-kit.ts';
import { addVideo, createSchedule, scheduleBody } from '../schedules/test-kit.ts';
import { createTikTokDriver } from '../../tiktok/tiktok-driver.ts';
import { createPublisher, type Publisher } from './publisher.ts';
import { INIT_FLIGHT_MS, type InitSlot } from './ledger-sql.ts';
import { INIT_IN_FLIGHT_RECHECK_MS, initWindowMs } from './rate-ledger.ts';
import { createPublishingRepository } from './repository.ts';
import type { InitRecord, SettleItem } from './settle-batch.ts';
import { INITS_PER_WINDOW } from '../../tiktok/tiktok-driver.ts';
import { usePublishingTestApp } from './test-kit.ts';

/**
 * TikTok's sliding minute, shortened: the sandbox counts its limits over this window and both
 * publishers pace over it (TIKTOK_SANDBOX_RATE_LIMIT_WINDOW_MS), so the seventh init waits
 * seconds, not a minute. Still far above the first window's latency (1.5 s) and the pacing margin
 * (1 s): an init paced from its reservation rather than from TikTok's answer would still go early.
 */
const WINDOW_MS = 10_000;
const kit = usePublishingTestApp({ TIKTOK_SANDBOX_RATE_LIMIT_WINDOW_MS: String(WINDOW_MS) });
/** More posts than one window holds: the seventh and eighth wait for the window to pass. */
const POSTS = INITS_PER_WINDOW + 2;

/** An instant as epoch milliseconds, to the microsecond, by the database's reading. */
async function epochMs(db: Kysely<Database>, instant: RawBuilder<unknown>): Promise<number> {
  const { rows } = await sql<{
    ms: number;
  }>`select (extract(epoch from ${instant}) * 1000)::float8 as ms`.execute(db);
  return Number(rows[0]?.ms);
}

/**
 * A repository whose batch statements are counted, one entry per statement sent: the settles'
 * (`settles`) and the confirmations' (`confirmations`).
 */
function countingRepository(
  db: Kysely<Database>,
  settleBatch?: Partial<CoalescerOptions<SettleItem>>,
) {
  const settles: number[] = [];
  const confirmations: number[] = [];
  const repository = createPublishingRepository(
    db.withPlugin({
      transformQuery({ node }) {
        if (node.kind === 'RawNode') {
          if (node.sqlFragments.some((part) => part.includes('recorded as ('))) settles.push(1);
          if (node.sqlFragments.some((part) => part.includes('marked as ('))) {
            confirmations.push(1);
          }
        }
        return node;
      },
      transformResult: async ({ result }) => result,
    }),
    { startWindowMs: WINDOW_MS, ...(settleBatch && { settleBatch }) },
  );
  return { repository, settles, confirmations };
}

/** Lets a few turns of the event loop pass: a batch sent at the next turn would have gone. */
async function turnsLater(): Promise<void> {
  for (let turn = 0; turn < 3; turn++) await new Promise((done) => setImmediate(done));
}

let second: DatabaseHandle | null = null;
afterAll(async () => {
  await second?.close();
});

describe('video init pacing', () => {
  it('never draws a 429 when two publishers hammer one account, and spaces the inits by TikTok’s window', async () => {
    const { context } = kit.t;
    // The app's own publisher and sandbox count over the short window, not TikTok's minute.
    expect(context.config.tiktok.sandboxRateLimitWindowMs).toBe(WINDOW_MS);
    // The second publisher has connections of its own on PostgreSQL, as another process would.
    const url = context.database.connectionString;
    if (url !== null) {
      second = await openDatabase({ databaseUrl: url, pgliteDataDir: '', poolSize: 4 });
    }
    const db = second?.db ?? context.database.db;
    const startedAt = Date.now();
    const { id: account } = await kit.freshAccount();
    const titles = Array.from({ length: POSTS }, (_, index) => `Paced ${index}`);
    // Made side by side (ffmpeg, then the media import): the order of `videos` is the titles'.
    const videos = await Promise.all(
      titles.map((title) => addVideo(kit.t, kit.user, kit.dir, title.replace(/\W/g, '_'))),
    );
    // The first window's requests take seconds to reach TikTok (a loaded machine, a slow
    // network), the next ones none: pacing from the moment of reservation would send the seventh
    // init less than a window after TikTok counted the first. (Set once the account is
    // connected: its OAuth exchange is not what this is about.)
    kit.sandbox().control.setLatency(1_500);
    const created = await createSchedule(kit.t, kit.user, {
      ...scheduleBody(
        account,
        videos.map((video) => video.mediaId),
      ),
      posts: videos.map((video, index) => ({
        mediaId: video.mediaId,
        title: titles[index] ?? '',
      })),
    });
    const ids = created.posts.map((post) => post.id);
    expect(ids).toHaveLength(POSTS);

    const hammer: Publisher = createPublisher({
      repository: createPublishingRepository(db, { startWindowMs: WINDOW_MS }),
      driver: createTikTokDriver(context.tiktok),
      tokens: context.tokens,
      storage: context.storage,
      // Its wake-ups are ignored: it comes back every 250 ms anyway.
      wake: async () => undefined,
      logger: pino({ level: 'silent' }),
    });
    const open = async () =>
      (
        await context.database.db
          .selectFrom('posts')
          .select('id')
          .where('id', 'in', ids)
          .where('status', 'in', ['pending', 'publishing'])
          .execute()
      ).length;
    // Besides the app's own publisher (queue and timers), this one runs every open post over
    // and over, also before the time it was told to come back.
    const left = await pollUntil(
      async () => {
        await Promise.all(ids.map((id) => hammer.advance(id)));
        const initsSoFar = kit
          .sandbox()
          .ledger()
          .posts.filter((post) => titles.includes(post.post_info?.title ?? '')).length;
        if (initsSoFar >= INITS_PER_WINDOW) kit.sandbox().control.setLatency(0);
        return open();
      },
      (count) => count === 0,
      // A bound for a stuck publisher, not a target: the wait ends once all are done.
      { timeoutMs: 120_000, intervalMs: 250 },
    );
    expect(left).toBe(0);

    const statuses = await context.database.db
      .selectFrom('posts')
      .select(['status', 'fail_reason'])
      .where('id', 'in', ids)
      .execute();
    expect(statuses.filter((row) => row.status !== 'completed')).toEqual([]);
    const ledger = kit.sandbox().ledger();
    const refused = ledger.rate_limited.filter(
      (refusal) => Date.parse(refusal.at) >= startedAt && refusal.endpoint.endsWith('init'),
    );
    expect(refused).toEqual([]);
    const inits = ledger.posts
      .filter((post) => titles.includes(post.post_info?.title ?? ''))
      .map((post) => Date.parse(post.init_at))
      .sort((a, b) => a - b);
    // Each post once, all published.
    expect(inits).toHaveLength(POSTS);
    for (let index = INITS_PER_WINDOW; index < inits.length; index++) {
      const spacing = (inits[index] ?? 0) - (inits[index - INITS_PER_WINDOW] ?? 0);
      expect(spacing).toBeGreaterThanOrEqual(WINDOW_MS);
    }
  }, 180_000);

  it('counts an answered init from its arrival, not from when its settle statement got its turn', async () => {
    const { db } = kit.t.context.database;
    const repository = createPublishingRepository(db, { startWindowMs: WINDOW_MS });
    const { id: account } = await kit.freshAccount();
    const dbNowMs = () => epochMs(db, sql`clock_timestamp()`);
    const slots = [];
    for (let index = 0; index < INITS_PER_WINDOW; index++) {
      const reserved = await repository.reserveInit(account);
      if (!('slot' in reserved)) throw new Error(`init ${index} of a new account was refused`);
      slots.push(reserved.slot);
    }
    // The answers arrive together; the database's clock, read right after, bounds their time.
    const arrivedByMs = await dbNowMs();
    // Their settle statements run one after another, later (under a burst: a queue for the pool).
    const stamps: number[] = [];
    for (const slot of slots) {
      const { stamp } = await repository.settleInit(slot, {
        answeredByMs: arrivedByMs,
      });
      const settledBy = await dbNowMs();
      const stampMs = await epochMs(db, sql`${stamp}::timestamptz`);
      // The arrival's bound, to the microsecond (one more per slot already stamped with it, so
      // that each slot keeps a name of its own), and before the statement's own time.
      expect(stampMs).toBeCloseTo(arrivedByMs + stamps.length / 1000, 2);
      // Not after it (PGlite's clock can read the same microsecond twice).
      expect(stampMs).toBeLessThanOrEqual(settledBy);
      stamps.push(stampMs);
    }
    expect(new Set(stamps).size).toBe(INITS_PER_WINDOW);
    // The window is full: the next init may go a window after the latest answer's arrival.
    const refused = await repository.reserveInit(account);
    if (!('freeAt' in refused)) throw new Error('a seventh init within the window was reserved');
    expect(refused.known).toBe(true);
    expect(
      Math.abs(refused.freeAt.getTime() - (Math.max(...stamps) + initWindowMs(WINDOW_MS))),
    ).toBeLessThanOrEqual(1);
  });

  it('ranks each slot in its account’s window, and confirms the earliest ranks first when many are due at once', async () => {
    const { db } = kit.t.context.database;
    /** Each confirmation statement's slots, as `account:rank`. */
    const statements: string[][] = [];
    const rankOf = new Map<string, string>();
    const repository = createPublishingRepository(
      db.withPlugin({
        transformQuery({ node }) {
          const input =
            node.kind === 'RawNode'
              ? node.parameters.find((parameter) => ValueNode.is(parameter))
              : undefined;
          if (
            node.kind === 'RawNode' &&
            node.sqlFragments.some((part) => part.includes('marked as (')) &&
            input !== undefined &&
            ValueNode.is(input)
          ) {
            const items = JSON.parse(String(input.value)) as { stamp: string }[];
            statements.push(items.map((item) => rankOf.get(item.stamp) ?? '?'));
          }
          return node;
        },
        transformResult: async ({ result }) => result,
      }),
      { startWindowMs: WINDOW_MS, confirmBatch: { maxBatch: 2, maxInFlight: 1 } },
    );
    const slots: InitSlot[] = [];
    for (const name of ['a', 'b']) {
      const { id: account } = await kit.freshAccount();
      for (let index = 0; index < 3; index++) {
        const reserved = await repository.reserveInit(account);
        if (!('slot' in reserved)) throw new Error(`init ${index} of a new account was refused`);
        slots.push(reserved.slot);
        rankOf.set(reserved.slot.stamp, `${name}:${reserved.slot.rank}`);
      }
    }
    expect(slots.map((slot) => slot.rank)).toEqual([0, 1, 2, 0, 1, 2]);
    // All due at one instant, their runs arriving latest rank first.
    const startedAt = new Date();
    await Promise.all(
      [...slots]
        .reverse()
        .map((slot) =>
          repository.confirmAndMarkInit(slot, crypto.randomUUID(), 'rank-test', startedAt),
        ),
    );
    // The accounts' first inits, on which their next windows wait, went first; in order of
    // arrival, a's last two would have.
    expect(statements).toEqual([
      ['b:0', 'a:0'],
      ['b:1', 'a:1'],
      ['b:2', 'a:2'],
    ]);
  });

  it('settles answers that arrive together in one statement: each slot from its arrival, each stamp its own, the publish id for the lease holder only', async () => {
    const { db } = kit.t.context.database;
    const { repository, settles: statements } = countingRepository(db, { windowMs: 200 });
    const { id: account } = await kit.freshAccount();
    const postId = await kit.duePostNobodyWakes('Settled together', account);
    const owner = 'settle-test-owner';
    await db.updateTable('posts').set({ lease_owner: owner }).where('id', '=', postId).execute();
    const slots = [];
    for (let index = 0; index < 4; index++) {
      const reserved = await repository.reserveInit(account);
      if (!('slot' in reserved)) throw new Error(`init ${index} of a new account was refused`);
      slots.push(reserved.slot);
    }
    const [first, second, third, gone] = slots as [InitSlot, InitSlot, InitSlot, InitSlot];
    // One slot was given back meanwhile: settling it writes nothing.
    await repository.releaseInit(gone);
    const arrivedMs = await epochMs(db, sql`clock_timestamp()`);
    const record = (publishOwner: string): InitRecord => ({
      postId,
      owner: publishOwner,
      publishId: `v_pub_file~v2-${publishOwner}`,
      uploadUrl: 'http://127.0.0.1/upload',
      uploadUrlExpiresAt: new Date(Date.now() + 3_600_000),
      videoSize: 1_000,
      chunkSize: 1_000,
      totalChunkCount: 1,
    });
    const answers = await Promise.all([
      repository.settleInit(first, { answeredByMs: arrivedMs, record: record(owner) }),
      repository.settleInit(second, { answeredByMs: arrivedMs }),
      repository.settleInit(third, { answeredByMs: arrivedMs, record: record('another-process') }),
      repository.settleInit(gone, { answeredByMs: arrivedMs }),
    ]);
    expect(statements).toHaveLength(1);
    expect(answers.map((answer) => answer.recorded)).toEqual([true, false, false, false]);
    expect(answers[3]?.stamp).toBeNull();
    // The same arrival for three slots: three stamps from it on, a microsecond apart.
    const stampsMs = await Promise.all(
      answers.slice(0, 3).map((answer) => epochMs(db, sql`${answer.stamp}::timestamptz`)),
    );
    expect(stampsMs[0]).toBeCloseTo(arrivedMs, 2);
    expect(stampsMs[1]).toBeCloseTo(arrivedMs + 0.001, 3);
    expect(stampsMs[2]).toBeCloseTo(arrivedMs + 0.002, 3);
    const row = await db
      .selectFrom('posts')
      .select(['publish_id', 'upload_url', 'uploaded_bytes'])
      .where('id', '=', postId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({
      publish_id: `v_pub_file~v2-${owner}`,
      upload_url: 'http://127.0.0.1/upload',
      uploaded_bytes: 0,
    });
    // An answer that arrived earlier, settled after these: stamped with its own arrival.
    const late = await repository.reserveInit(account);
    if (!('slot' in late)) throw new Error('a fourth init was refused');
    const { stamp: lateStamp } = await repository.settleInit(late.slot, {
      answeredByMs: arrivedMs - 5,
    });
    expect(await epochMs(db, sql`${lateStamp}::timestamptz`)).toBeCloseTo(arrivedMs - 5, 2);
  });

  it('confirms and settles calls made turns of the event loop apart in one statement each, as a burst of inits and answers makes them', async () => {
    const { db } = kit.t.context.database;
    const { repository, settles, confirmations } = countingRepository(db);
    const { id: account } = await kit.freshAccount();
    const slots: InitSlot[] = [];
    for (let index = 0; index < 3; index++) {
      const reserved = await repository.reserveInit(account);
      if (!('slot' in reserved)) throw new Error(`init ${index} of a new account was refused`);
      slots.push(reserved.slot);
    }
    // A window's paced inits confirm a few milliseconds apart (posts nobody holds: each slot is
    // restamped, no post marked).
    const confirming = [];
    for (const slot of slots) {
      confirming.push(
        repository.confirmAndMarkInit(slot, crypto.randomUUID(), 'batch-test', new Date()),
      );
      await turnsLater();
    }
    const confirmed = await Promise.all(confirming);
    expect(confirmations).toHaveLength(1);
    expect(confirmed.every((answer) => answer.stamp !== null)).toBe(true);
    // A burst's answers are read a few at a time.
    const arrivedMs = await epochMs(db, sql`clock_timestamp()`);
    const settling = [];
    for (const [index, slot] of slots.entries()) {
      const stamp = confirmed[index]?.stamp ?? slot.stamp;
      settling.push(repository.settleInit({ ...slot, stamp }, { answeredByMs: arrivedMs }));
      await turnsLater();
    }
    const settled = await Promise.all(settling);
    expect(settles).toHaveLength(1);
    expect(settled.every((answer) => answer.stamp !== null)).toBe(true);
  });

  it('sends a post refused by inits still in flight back when the earliest of them could free a slot', async () => {
    const { db } = kit.t.context.database;
    const repository = createPublishingRepository(db, { startWindowMs: WINDOW_MS });
    const { id: account } = await kit.freshAccount();
    // Whole milliseconds, as the drivers read a timestamp into a Date (freeAt's precision).
    const dbNowMs = async () => Math.floor(await epochMs(db, sql`clock_timestamp()`));
    const before = await dbNowMs();
    for (let index = 0; index < INITS_PER_WINDOW; index++) {
      if (!('slot' in (await repository.reserveInit(account)))) {
        throw new Error(`init ${index} of a new account was refused`);
      }
    }
    const after = await dbNowMs();
    // Six reserved, none sent yet: none can be answered before it leaves, so none frees its slot
    // before a window after its reservation (the earliest of the six: the sixth latest).
    const refused = await repository.reserveInit(account);
    if (!('freeAt' in refused)) throw new Error('a seventh init within the window was reserved');
    expect(refused.known).toBe(false);
    expect(refused.freeAt.getTime()).toBeGreaterThanOrEqual(before + initWindowMs(WINDOW_MS));
    expect(refused.freeAt.getTime()).toBeLessThanOrEqual(after + initWindowMs(WINDOW_MS));

    // Inits in flight longer than a window (here: sent 40 s ago, still unanswered, their stamps
    // 5 s ahead): any of them may free its slot any moment, so the post asks again soon.
    const now = await dbNowMs();
    const stamps = Array.from(
      { length: INITS_PER_WINDOW },
      (_, index) => new Date(now + INIT_FLIGHT_MS - 40_000 + index),
    );
    await db
      .updateTable('tiktok_init_pacing')
      .set({ recent_inits: stamps })
      .where('account_id', '=', account)
      .execute();
    const soon = await repository.reserveInit(account);
    if (!('freeAt' in soon)) throw new Error('a seventh init within the window was reserved');
    expect(soon.known).toBe(false);
    const asked = await dbNowMs();
    expect(soon.freeAt.getTime()).toBeGreaterThanOrEqual(now + INIT_IN_FLIGHT_RECHECK_MS);
    expect(soon.freeAt.getTime()).toBeLessThanOrEqual(asked + INIT_IN_FLIGHT_RECHECK_MS);
  });
});
