// Regression: an analysis whose processing killed the worker was re-queued at every start-up and
// killed it again, forever (issue 9, item 1). A worker that dies leaves only what it wrote before
// dying: the claim of the row. Here each "run" claims the row as the real job does and then dies
// (writes nothing more); "start-up" is the real recovery, then the real job handler.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newLease } from '../db/lease.ts';
import { createMemeRepository } from '../modules/memes/repository.ts';
import { createStoryRepository } from '../modules/stories/repository.ts';
import { createTestApp, signUpViaApi, type TestApp } from '../test-support/app.ts';
import { MAX_JOB_ATTEMPTS } from './queue.ts';

let t: TestApp;
let userId: string;

beforeAll(async () => {
  t = await createTestApp();
  await signUpViaApi(t.app, { email: 'poison@example.com' }, t.url);
  await t.context.users.setProByEmail('poison@example.com', true);
  const user = await t.context.database.db
    .selectFrom('user')
    .select('id')
    .where('email', '=', 'poison@example.com')
    .executeTakeFirstOrThrow();
  userId = user.id;
}, 60_000);
afterAll(async () => {
  await t?.close();
});

/** A story row with no sources, as a render request leaves it, for the recovery to find. */
async function insertStory(): Promise<string> {
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

/** The dead worker stopped renewing its lease a while ago: its row may be taken again. */
const longAgo = () => new Date(Date.now() - 10 * 60_000);

describe('a row whose processing kills the worker', () => {
  it('fails a story render with its reason after MAX_JOB_ATTEMPTS deaths, instead of re-queuing it forever', async () => {
    const { db } = t.context.database;
    const stories = createStoryRepository(db);
    const id = await insertStory();
    for (let death = 1; death <= MAX_JOB_ATTEMPTS; death++) {
      // Start-up: the interrupted render is queued again…
      expect(await t.context.storyRenderer.recoverInterrupted()).toBe(1);
      // …its job takes the row, and the process dies in the middle of the render.
      expect(await stories.claim(id, newLease(60_000))).toBeDefined();
      await db
        .updateTable('stories')
        .set({ lease_until: longAgo() })
        .where('id', '=', id)
        .execute();
    }
    expect(await t.context.storyRenderer.recoverInterrupted()).toBe(1);
    expect(await t.context.storyRenderer.render(id)).toBe('failed');
    const row = await db
      .selectFrom('stories')
      .select(['status', 'fail_reason'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'failed', fail_reason: 'stories.failures.crashed' });
    // The next start-up has nothing left to re-queue.
    expect(await t.context.storyRenderer.recoverInterrupted()).toBe(0);
  });

  it('fails a meme analysis with its reason after MAX_JOB_ATTEMPTS deaths, instead of re-queuing it forever', async () => {
    const { db } = t.context.database;
    const memes = createMemeRepository(db);
    const id = randomUUID();
    await db
      .insertInto('meme_analyses')
      .values({
        id,
        user_id: userId,
        source_type: 'media',
        source_url: null,
        source_media_id: null,
        layout: 'crop',
      })
      .execute();
    for (let death = 1; death <= MAX_JOB_ATTEMPTS; death++) {
      expect(await t.context.memeStages.recoverInterrupted()).toBe(1);
      expect(await memes.claimAnalysis(id, newLease(60_000))).toBeDefined();
      await db
        .updateTable('meme_analyses')
        .set({ lease_until: longAgo() })
        .where('id', '=', id)
        .execute();
    }
    expect(await t.context.memeStages.recoverInterrupted()).toBe(1);
    expect(await t.context.memeStages.analyse(id)).toBe('failed');
    const analysis = await t.context.memes.get(userId, id);
    expect(analysis).toMatchObject({ status: 'failed', failReason: 'memes.failures.crashed' });
    expect(await t.context.memeStages.recoverInterrupted()).toBe(0);
  });

  it('still runs a row that died fewer than MAX_JOB_ATTEMPTS times, and a finished run starts the count again', async () => {
    const { db } = t.context.database;
    const stories = createStoryRepository(db);
    const id = await insertStory();
    for (let death = 1; death < MAX_JOB_ATTEMPTS; death++) {
      expect(await stories.claim(id, newLease(60_000))).toBeDefined();
      await db
        .updateTable('stories')
        .set({ lease_until: longAgo() })
        .where('id', '=', id)
        .execute();
    }
    // This run lives: it fails for its own reason (no source videos), not as a crash.
    expect(await t.context.storyRenderer.render(id)).toBe('failed');
    expect(
      await db
        .selectFrom('stories')
        .select(['fail_reason', 'unfinished_runs'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow(),
    ).toEqual({ fail_reason: 'stories.failures.sourceMissing', unfinished_runs: 0 });
  });
});
