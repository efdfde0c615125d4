import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import '../modules/uploads/db-types.ts';
import { openTestDatabase, testDatabaseKind } from '../test-support/database.ts';
import type { DatabaseHandle } from './client.ts';
import { leaseStatements, newLease } from './lease.ts';
import { migrate } from './migrate.ts';

let database: DatabaseHandle;
// Lock rows of the upload locks table: any leased table would do, this one needs no parent row.
let locks: ReturnType<typeof leaseStatements<'upload_locks'>>;
let keys = 0;
const newKey = () => `lease-test-${++keys}`;

beforeAll(async () => {
  database = await openTestDatabase();
  await migrate(database.db);
  locks = leaseStatements(database.db, 'upload_locks', 'upload_id');
});
afterEach(() => {
  vi.useRealTimers();
});
afterAll(async () => {
  await database.close();
});

const ownerOf = async (key: string) =>
  (
    await database.db
      .selectFrom('upload_locks')
      .select('lease_owner')
      .where('upload_id', '=', key)
      .executeTakeFirst()
  )?.lease_owner ?? null;

/** Polls `check` until true, on the real clock (the test may move the process's clock). */
async function eventually(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await check())) {
    if (performance.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('one lease', () => {
  it('is claimed by one owner; only that owner renews or releases it', async () => {
    const key = newKey();
    const first = newLease(60_000);
    const second = newLease(60_000);
    expect(await locks.claim(key, first)).toBe(true);
    expect(await locks.claim(key, second)).toBe(false);
    expect(await locks.isHeld(key)).toBe(true);

    expect(await locks.renew(key, first)).toBe(true);
    expect(await locks.renew(key, second)).toBe(false);
    expect(await locks.release(key, second.owner)).toBe(false);
    expect(await ownerOf(key)).toBe(first.owner);

    expect(await locks.release(key, first.owner)).toBe(true);
    expect(await locks.isHeld(key)).toBe(false);
    expect(await locks.claim(key, second)).toBe(true);
    expect(await ownerOf(key)).toBe(second.owner);
  });

  it('runs out when not renewed: another claim takes it, and the first holder then has nothing', async () => {
    const key = newKey();
    const holder = newLease(300);
    const other = newLease(60_000);
    expect(await locks.claim(key, holder)).toBe(true);
    expect(await locks.claim(key, other)).toBe(false);
    await eventually(() => locks.claim(key, other), 5_000);
    expect(await ownerOf(key)).toBe(other.owner);
    expect(await locks.renew(key, holder)).toBe(false);
    expect(await locks.release(key, holder.owner)).toBe(false);
    expect(await ownerOf(key)).toBe(other.owner);
  });

  // PGlite runs inside this process: its clock is this process's clock. A PostgreSQL server's is
  // its own, and processes on other machines may disagree with it and with each other.
  it.runIf(testDatabaseKind() === 'postgres')(
    "expires by the database's clock, whatever the process's clock says",
    async () => {
      const key = newKey();
      const holder = newLease(400);
      const other = newLease(60_000);
      expect(await locks.claim(key, holder)).toBe(true);

      // This process's clock an hour ahead: the lease is still running on the database's.
      vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 60 * 60_000 });
      expect(await locks.claim(key, other)).toBe(false);
      expect(await locks.isHeld(key)).toBe(true);

      // An hour behind: the lease still runs out once the database's clock passes its end.
      vi.setSystemTime(Date.now() - 2 * 60 * 60_000);
      await eventually(() => locks.claim(key, other), 5_000);
      expect(await ownerOf(key)).toBe(other.owner);
    },
  );

  it('renewing keeps a short lease its own past its first end', async () => {
    const key = newKey();
    const holder = newLease(300);
    expect(await locks.claim(key, holder)).toBe(true);
    const { rows } = await sql<{
      end: Date;
    }>`select now() + interval '600 milliseconds' as end`.execute(database.db);
    const pastFirstEnd = rows[0]?.end ?? new Date();
    // Renewed every 100 ms until the database's clock is past where the first lease ended.
    await eventually(async () => {
      expect(await locks.renew(key, holder)).toBe(true);
      expect(await locks.claim(key, newLease(60_000))).toBe(false);
      const now = await sql<{ past: boolean }>`select now() > ${pastFirstEnd} as past`.execute(
        database.db,
      );
      await new Promise((resolve) => setTimeout(resolve, 100));
      return now.rows[0]?.past === true;
    }, 5_000);
    expect(await ownerOf(key)).toBe(holder.owner);
  });

  it('goes to exactly one of many claims racing for a free or an expired lock', async () => {
    for (const stale of [false, true]) {
      const key = newKey();
      if (stale) {
        await sql`insert into upload_locks (upload_id, lease_owner, lease_until)
          values (${key}, 'a-process-that-died', now() - interval '1 second')`.execute(database.db);
      }
      const claims = Array.from({ length: 8 }, () => newLease(60_000));
      const won = await Promise.all(claims.map((lease) => locks.claim(key, lease)));
      expect(won.filter(Boolean)).toHaveLength(1);
      expect(await ownerOf(key)).toBe(claims[won.indexOf(true)]?.owner);
    }
  });

  it('forgets expired locks only', async () => {
    const [expired, held] = [newKey(), newKey()];
    await sql`insert into upload_locks (upload_id, lease_owner, lease_until)
      values (${expired}, 'dead', now() - interval '1 second')`.execute(database.db);
    expect(await locks.claim(held, newLease(60_000))).toBe(true);
    expect(await locks.deleteExpired()).toBeGreaterThanOrEqual(1);
    expect(await ownerOf(expired)).toBeNull();
    expect(await locks.isHeld(held)).toBe(true);
  });
});
