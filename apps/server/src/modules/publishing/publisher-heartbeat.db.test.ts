// Issue 10, item 1: the publisher hand-rolled its heartbeat with setInterval, and stopping it did
// not wait for a renewal in flight: `advance` returned, and the worker moved on, while a renewal
// of the lease it had just let go could still land. It now uses the one heartbeat (lib/heartbeat.ts).
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { createTikTokDriver } from '../../tiktok/tiktok-driver.ts';
import { createPublisher } from './publisher.ts';
import { createPublishingRepository, type PublishingRepository } from './repository.ts';
import { usePublishingTestApp } from './test-kit.ts';
import { withSlowRenewals } from '../../test-support/slow-renewals.ts';

const kit = usePublishingTestApp();

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

/** Lets the promise callbacks and I/O callbacks already due run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("the publisher's heartbeat", () => {
  it('is stopped before advance returns: a renewal in flight is waited for', async () => {
    const postId = await kit.duePostNobodyWakes('Heartbeat');
    const { db } = kit.t.context.database;

    const events: string[] = [];
    const renewalSent = deferred();
    const renewalMayAnswer = deferred();
    const real = createPublishingRepository(db);
    const repository: PublishingRepository = {
      ...real,
      renewLease: async (id, lease) => {
        events.push('renewal sent');
        renewalSent.resolve();
        await renewalMayAnswer.promise;
        const kept = await real.renewLease(id, lease);
        events.push('renewal answered');
        return kept;
      },
    };
    // The step's last act is queuing the next wake-up: held until a renewal is in flight.
    const stepEnding = deferred();
    const stepMayEnd = deferred();
    const { context } = kit.t;
    const publisher = createPublisher({
      repository,
      driver: createTikTokDriver(context.tiktok),
      tokens: context.tokens,
      storage: context.storage,
      wake: async () => {
        stepEnding.resolve();
        await stepMayEnd.promise;
      },
      logger: pino({ level: 'silent' }),
      // Renewed every 2 s.
      leaseMs: 6_000,
    });

    const advancing = publisher.advance(postId).then((outcome) => {
      events.push('advance returned');
      return outcome;
    });
    await Promise.all([renewalSent.promise, stepEnding.promise]);
    stepMayEnd.resolve();
    await settle();
    await settle();
    expect(events).toEqual(['renewal sent']);

    renewalMayAnswer.resolve();
    // Init and upload done; the post waits for its first status check.
    expect(await advancing).toBe('waiting');
    expect(events).toEqual(['renewal sent', 'renewal answered', 'advance returned']);
    expect(kit.ledgerPostsTitled('Heartbeat')).toHaveLength(1);
  });

  it('hands a post back when its renewals stop being confirmed, as a run that ended, not died', async () => {
    const postId = await kit.duePostNobodyWakes('Slow lease');
    const { db } = kit.t.context.database;
    const real = createPublishingRepository(db);
    // A database too slow to confirm any renewal within the lease (a starved machine).
    const repository = withSlowRenewals(real, 3_000);
    const { context } = kit.t;
    const woken: string[] = [];
    const publisher = createPublisher({
      repository,
      // Each chunk takes longer than the lease: the work notices the unconfirmed lease.
      driver: createTikTokDriver({
        ...context.tiktok,
        uploadChunk: async (url, options) => {
          await new Promise((resolve, reject) => {
            const timer = setTimeout(resolve, 2_500);
            options.signal?.addEventListener(
              'abort',
              () => {
                clearTimeout(timer);
                reject(new Error('upload aborted', { cause: options.signal?.reason }));
              },
              { once: true },
            );
          });
          return context.tiktok.uploadChunk(url, options);
        },
      }),
      tokens: context.tokens,
      storage: context.storage,
      wake: async (id) => {
        woken.push(id);
      },
      logger: pino({ level: 'silent' }),
      leaseMs: 1_500,
    });

    expect(await publisher.advance(postId)).toBe('lease_lost');
    const row = await db
      .selectFrom('posts')
      .select(['status', 'lease_owner', 'unfinished_runs'])
      .where('id', '=', postId)
      .executeTakeFirstOrThrow();
    // Released, its run count reset (it would have counted towards the poison-row limit), and
    // woken again at once; the next run resumes from the row.
    expect(row).toMatchObject({ status: 'publishing', lease_owner: null, unfinished_runs: 0 });
    expect(woken).toEqual([postId]);
  }, 30_000);
});
