// Issue 10, item 1: meme analyses stamped their heartbeats with each process's own clock, so a
// worker whose clock ran ahead could take a live stage as stale. The lease now runs out on the
// database's clock only, goes to one claim, and a stalled worker's late writes land nowhere.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newLease } from '../../db/lease.ts';
import { createTestApp, signUpViaApi, type TestApp } from '../../test-support/app.ts';
import { createMemeRepository } from './repository.ts';

let t: TestApp;
let userId: string;

beforeAll(async () => {
  t = await createTestApp();
  await signUpViaApi(t.app, { email: 'stale-meme@example.com' }, t.url);
  const user = await t.context.database.db
    .selectFrom('user')
    .select('id')
    .where('email', '=', 'stale-meme@example.com')
    .executeTakeFirstOrThrow();
  userId = user.id;
});
afterAll(async () => {
  await t?.close();
});

const outcome = { durationSeconds: 90, hasAudio: true, shorterThanTarget: false, extracts: [] };

describe('two workers and a stale meme analysis', () => {
  it('gives the stale stage to one of two racing workers; the stalled one writes nothing', async () => {
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
    const row = async () =>
      db
        .selectFrom('meme_analyses')
        .select(['status', 'progress', 'lease_owner', 'duration_seconds'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();

    const stalled = newLease(60_000);
    expect(await memes.claimAnalysis(id, stalled)).toMatchObject({ status: 'analysing' });
    // Held: nobody else gets it.
    expect(await memes.claimAnalysis(id, newLease(60_000))).toBeUndefined();
    await memes.setProgress(id, stalled.owner, 0.4);
    expect(await memes.renewLease(id, stalled)).toBe(true);

    // The worker stalls past its lease (on the database's clock); two others race for the stage.
    await sql`update meme_analyses set lease_until = now() - interval '1 second' where id = ${id}`.execute(
      db,
    );
    const [first, second] = [newLease(60_000), newLease(60_000)];
    const claims = await Promise.all([
      memes.claimAnalysis(id, first),
      memes.claimAnalysis(id, second),
    ]);
    expect(claims.filter((claim) => claim !== undefined)).toHaveLength(1);
    const winner = claims[0] ? first : second;
    expect(await row()).toMatchObject({
      status: 'analysing',
      progress: 0,
      lease_owner: winner.owner,
    });

    // The stalled worker comes back: its renewal says the lease is lost; its writes land nowhere.
    expect(await memes.renewLease(id, stalled)).toBe(false);
    await memes.setProgress(id, stalled.owner, 0.9);
    expect(await memes.analysed(id, stalled.owner, { ...outcome, durationSeconds: 1 })).toBe(false);
    await memes.fail(id, stalled.owner, 'memes.failures.failed');
    expect(await row()).toMatchObject({
      status: 'analysing',
      progress: 0,
      lease_owner: winner.owner,
    });

    // The winner's result is the one recorded, and hands the row over to the compilation.
    expect(await memes.analysed(id, winner.owner, outcome)).toBe(true);
    expect(await row()).toMatchObject({
      status: 'compiling',
      lease_owner: null,
      duration_seconds: 90,
    });
    const compiler = newLease(60_000);
    expect(await memes.claimCompilation(id, compiler)).toBeDefined();
    expect(await memes.claimCompilation(id, newLease(60_000))).toBeUndefined();
    expect(await memes.complete(id, stalled.owner, randomUUID())).toBe(false);
  });
});
