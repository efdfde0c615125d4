// A meme stage stopped because its lease renewals went unconfirmed (a slow database, a starved
// process) used to report 'cancelled' and leave the row 'analysing' under its lease until a
// worker restarted. The stage may still be this run's: it is handed back and queued again at once.
import path from 'node:path';
import type { MemeAnalysis } from '@cadence/shared/schemas/meme';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUpViaApi, type TestApp } from '../../test-support/app.ts';
import { createTempDir, makeVideo } from '../../test-support/media-fixtures.ts';
import { tusUpload } from '../../test-support/tus-upload.ts';
import type { MediaService } from '../media/service.ts';
import { createMemeRepository, type MemeRepository } from './repository.ts';
import { createMemeStages } from './meme-stages.ts';
import { mediaAfter, slowRenewals } from '../../test-support/slow-renewals.ts';

let t: TestApp;
let dir: string;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ dir, cleanup } = await createTempDir('cadence-meme-slow-lease-'));
  t = await createTestApp({ MEME_COMPILE_PRESET: 'ultrafast' }, { listen: true });
});
afterAll(async () => {
  await t?.close();
  await cleanup?.();
});

/** A stage worker of its own over the shared database and storage; queued jobs are recorded. */
function stageWorker(
  repository: MemeRepository,
  leaseMs: number,
  queued: string[],
  media: MediaService = t.context.media,
) {
  return createMemeStages({
    repository,
    media,
    storage: t.context.storage,
    enqueueAnalysis: async (id) => {
      queued.push(`analyse:${id}`);
    },
    enqueueCompilation: async (id) => {
      queued.push(`compile:${id}`);
    },
    ffmpegPath: t.config.media.ffmpegPath,
    ffprobePath: t.config.media.ffprobePath,
    ytDlpPath: t.config.media.ytDlpPath,
    compilePreset: 'ultrafast',
    logger: pino({ level: 'silent' }),
    lease: { ms: leaseMs, heartbeatMs: 100 },
  });
}

describe('a meme stage whose lease renewals go unconfirmed', () => {
  it('is handed back and queued again, not left analysing until a restart', async () => {
    const cookie = await signUpViaApi(t.app, { email: 'slow-meme@example.com' }, t.url);
    await t.context.users.setProByEmail('slow-meme@example.com', true);
    // 5 s is enough: the first run is stopped before any of its work (see mediaAfter below), and
    // the second only has to complete. 360 px high, TikTok's minimum, so the upload is accepted.
    const file = await makeVideo(path.join(dir, 'source.mp4'), {
      width: 640,
      height: 360,
      durationSeconds: 5,
    });
    const uploaded = await tusUpload(t.url, cookie, file, {
      filename: 'source.mp4',
      purpose: 'source',
    });
    expect(uploaded.status, uploaded.body).toBe(204);
    // No worker runs in this app: the analysis stays queued for the workers below.
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/memes',
      headers: { cookie, origin: t.url },
      payload: { source: { type: 'media', mediaId: uploaded.id } },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json<MemeAnalysis>().id;

    const { db } = t.context.database;
    const shared = createMemeRepository(db);
    // Every renewal takes longer than the lease: none is confirmed in time, though the lease is
    // still this worker's.
    // Renewals answer 2.5 s after they are sent, long after the 400 ms lease ran out; the stage's
    // work starts only once the first has answered, so the lease is known lost before any of it
    // (a fast machine would otherwise finish the analysis within the lease).
    const slow = slowRenewals(shared, 2_500);
    const media = mediaAfter(t.context.media, slow.firstAnswered);
    const queued: string[] = [];
    expect(await stageWorker(slow.repository, 400, queued, media).analyse(id)).toBe('cancelled');

    // Free for the next claim at once, queued again, and this run not counted as a crash.
    expect(queued).toEqual([`analyse:${id}`]);
    expect(
      await db
        .selectFrom('meme_analyses')
        .select(['status', 'lease_owner', 'unfinished_runs', 'progress'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow(),
    ).toEqual({ status: 'analysing', lease_owner: null, unfinished_runs: 0, progress: 0 });
    expect(await stageWorker(shared, 60_000, queued).analyse(id)).toBe('completed');
    expect(queued).toEqual([`analyse:${id}`, `compile:${id}`]);
  }, 90_000);
});
