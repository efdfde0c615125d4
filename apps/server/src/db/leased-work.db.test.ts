// The active limit of leased work rows (db/leased-work.ts) under simultaneous requests: the
// user's advisory lock makes each request count the rows the others inserted. On PostgreSQL the
// requests run on several connections at once; PGlite has one connection and runs them in turn.
// Shown here on meme analyses; story renders count through the same statement.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemeRepository, type MemeRepository } from '../modules/memes/repository.ts';
import { openTestDatabase } from '../test-support/database.ts';
import type { DatabaseHandle } from './client.ts';
import { migrate } from './migrate.ts';

let database: DatabaseHandle;
let memes: MemeRepository;

beforeAll(async () => {
  database = await openTestDatabase();
  await migrate(database.db);
  memes = createMemeRepository(database.db);
});
afterAll(async () => {
  await database.close();
});

async function newUser(): Promise<string> {
  const id = randomUUID();
  await database.db
    .insertInto('user')
    .values({
      id,
      name: id,
      email: `${id}@example.com`,
      emailVerified: false,
      updatedAt: new Date(),
    })
    .execute();
  return id;
}

/** `count` analysis requests of `userId`, all sent at once; the rows each one inserted, if any. */
function requestAnalyses(userId: string, count: number, limit: number) {
  return Promise.all(
    Array.from({ length: count }, () =>
      memes.insertWithinLimit(
        {
          id: randomUUID(),
          user_id: userId,
          source_type: 'youtube',
          source_url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
          source_media_id: null,
          layout: 'crop',
        },
        limit,
      ),
    ),
  );
}

describe('the active limit of a leased work table', () => {
  it('lets in no more simultaneous requests than the limit, and counts each user apart', async () => {
    const [alice, bob] = [await newUser(), await newUser()];
    const [aliceAnswers, bobAnswers] = await Promise.all([
      requestAnalyses(alice, 12, 3),
      requestAnalyses(bob, 12, 3),
    ]);
    for (const [userId, answers] of [
      [alice, aliceAnswers],
      [bob, bobAnswers],
    ] as const) {
      const accepted = answers.filter((row) => row !== null);
      expect(accepted).toHaveLength(3);
      const listed = await memes.listForUser(userId);
      expect(listed.map((row) => row.id).sort()).toEqual(accepted.map((row) => row.id).sort());
    }

    // A cancelled analysis frees its slot, for one request and no more.
    const [first] = await memes.listForUser(alice);
    expect(await memes.cancel(alice, first!.id)).toMatchObject({ status: 'cancelled' });
    const again = await requestAnalyses(alice, 4, 3);
    expect(again.filter((row) => row !== null)).toHaveLength(1);
  });
});
