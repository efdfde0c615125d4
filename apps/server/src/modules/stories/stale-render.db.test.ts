// Regression (issue 10, item 1): a story's heartbeat had no owner. Once a stalled worker's render
// was taken over as stale, both workers kept beating and both rendered, and whichever finished
// first recorded its video. Now the render is leased to one claim: the stalled worker's next
// renewal finds the lease gone, it stops, and it records nothing.
import path from 'node:path';
import pino from 'pino';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUpViaApi, type TestApp } from '../../test-support/app.ts';
import { createTempDir, makeVideo } from '../../test-support/media-fixtures.ts';
import { tusUpload } from '../../test-support/tus-upload.ts';
import { pollUntil } from '../../tiktok/sandbox-test-kit.ts';
import type { MediaService } from '../media/service.ts';
import { createStoryRepository, type StoryRepository } from './repository.ts';
import { createStoryRenderer } from './renderer.ts';
import { mediaAfter, slowRenewals } from '../../test-support/slow-renewals.ts';

let t: TestApp;
let dir: string;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ dir, cleanup } = await createTempDir('cadence-stale-render-'));
  t = await createTestApp({}, { listen: true });
});
afterAll(async () => {
  await t?.close();
  await cleanup?.();
});

/** A render worker of its own (as in another process), over the shared database and storage. */
function renderWorker(
  repository: StoryRepository,
  media: MediaService = t.context.media,
  { leaseMs = 60_000, enqueue = (_storyId: string): Promise<void> => Promise.resolve() } = {},
) {
  return createStoryRenderer({
    repository,
    media,
    enqueue,
    ffmpegPath: t.config.media.ffmpegPath,
    logger: pino({ level: 'silent' }),
    lease: { ms: leaseMs, heartbeatMs: 100 },
  });
}

/** Signs up a Pro user with two uploaded videos and queues one story; no worker runs it. */
async function queuedStory(
  email: string,
  durationSeconds: number,
): Promise<{ storyId: string; cookie: string }> {
  const cookie = await signUpViaApi(t.app, { email }, t.url);
  await t.context.users.setProByEmail(email, true);
  const sources: string[] = [];
  for (const [name, width, height] of [
    ['top.mp4', 360, 640],
    ['bottom.mp4', 640, 360],
  ] as const) {
    const file = await makeVideo(path.join(dir, `${email}-${name}`), {
      width,
      height,
      durationSeconds,
    });
    const uploaded = await tusUpload(t.url, cookie, file, { filename: name });
    expect(uploaded.status, uploaded.body).toBe(204);
    sources.push(uploaded.id ?? '');
  }
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/stories',
    headers: { cookie, origin: t.url },
    payload: { topMediaIds: [sources[0]], bottomMediaIds: [sources[1]], mixBottomAudio: false },
  });
  expect(created.statusCode, created.body).toBe(201);
  return { storyId: created.json<{ stories: { id: string }[] }>().stories[0]?.id ?? '', cookie };
}

describe('two workers and a stale render', () => {
  it('lets only one worker render a story taken over from a stalled one, and records only its video', async () => {
    // No worker runs in this app: the story stays queued for the workers below.
    const { storyId, cookie } = await queuedStory('stale@example.com', 3);
    const { db } = t.context.database;
    const leaseOwner = async () =>
      (
        await db
          .selectFrom('stories')
          .select('lease_owner')
          .where('id', '=', storyId)
          .executeTakeFirstOrThrow()
      ).lease_owner;

    // Worker A claims the render, then stalls: its renewals stop landing (a paused VM, a
    // database link down) until the test lets them through.
    const shared = createStoryRepository(db);
    let resume!: () => void;
    const stalled = new Promise<void>((resolve) => (resume = resolve));
    const stalling: StoryRepository = {
      ...shared,
      renewLease: async (id, lease) => {
        await stalled;
        return shared.renewLease(id, lease);
      },
    };
    // What A stores: a render it finished would be stored before being found unwanted.
    const storedByA: string[] = [];
    const mediaOfA: MediaService = {
      ...t.context.media,
      createFromFile: async (...args) => {
        const row = await t.context.media.createFromFile(...args);
        storedByA.push(row.id);
        return row;
      },
    };
    const renderA = renderWorker(stalling, mediaOfA).render(storyId);
    const ownerA = await pollUntil(leaseOwner, (owner) => owner !== null, {
      timeoutMs: 10_000,
      intervalMs: 10,
    });
    // Its lease runs out on the database's clock while it is stalled.
    await sql`update stories set lease_until = now() - interval '1 second' where id = ${storyId}`.execute(
      db,
    );

    // Two healthy workers race for the stale render: one takes it.
    const renderB = renderWorker(shared).render(storyId);
    const renderC = renderWorker(shared).render(storyId);
    const taker = await pollUntil(leaseOwner, (owner) => owner !== null && owner !== ownerA, {
      timeoutMs: 10_000,
      intervalMs: 10,
    });
    // A comes back: its next renewal finds the lease another's, and it stops.
    resume();

    // A stopped its ffmpeg mid-render: it never got as far as storing a video.
    expect(await renderA).toBe('cancelled');
    expect(storedByA).toEqual([]);
    expect([await renderB, await renderC].sort()).toEqual(['completed', 'skipped']);
    const story = await db
      .selectFrom('stories')
      .select(['status', 'result_media_id', 'lease_owner', 'progress'])
      .where('id', '=', storyId)
      .executeTakeFirstOrThrow();
    expect(story).toMatchObject({ status: 'completed', lease_owner: null, progress: 1 });
    expect(taker).not.toBe(ownerA);
    // One story video for the user: the winner's, recorded on the story. A's was never kept.
    const media = await t.app.inject({
      method: 'GET',
      url: '/api/media?kind=story',
      headers: { cookie, origin: t.url },
    });
    const stored = media.json<{ media: { id: string }[] }>().media;
    expect(stored.map((item) => item.id)).toEqual([story.result_media_id]);
  });

  it('hands a render back to the queue when its renewals go unconfirmed, not left rendering', async () => {
    const { storyId } = await queuedStory('slow-lease@example.com', 8);
    const { db } = t.context.database;
    const shared = createStoryRepository(db);
    // Every renewal takes longer than the lease: none is confirmed in time (a starved process,
    // a slow database), though the lease is still this worker's.
    // The render starts only once the first renewal has answered, long after the lease ran out.
    const slow = slowRenewals(shared, 2_500);
    const queued: string[] = [];
    const outcome = await renderWorker(
      slow.repository,
      mediaAfter(t.context.media, slow.firstAnswered),
      {
        leaseMs: 1_500,
        enqueue: async (id) => {
          queued.push(id);
        },
      },
    ).render(storyId);

    expect(outcome).toBe('cancelled');
    // Back in the queue at once, free for the next claim, and this run not counted as a crash.
    expect(queued).toEqual([storyId]);
    expect(
      await db
        .selectFrom('stories')
        .select(['status', 'lease_owner', 'unfinished_runs', 'progress'])
        .where('id', '=', storyId)
        .executeTakeFirstOrThrow(),
    ).toEqual({ status: 'queued', lease_owner: null, unfinished_runs: 0, progress: 0 });
    expect(await renderWorker(shared).render(storyId)).toBe('completed');
  }, 60_000);
});
