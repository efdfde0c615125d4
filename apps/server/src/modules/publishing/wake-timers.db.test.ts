// The publisher's wake-up timers (docs/decisions/039-publishing-precision.md): a worker starts
// even when PostgreSQL refuses its LISTEN connection, and hears NOTIFY once it connects; an
// announced wake-up runs in one live worker process, not in every one, also right after another
// process joins, and a wake-up computed in another process is handed to the post's own.
import { randomUUID } from 'node:crypto';
import net from 'node:net';
import type { Kysely } from 'kysely';
import pg from 'pg';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from '../../db/schema.ts';
import { testDatabaseKind, testPostgresUrl } from '../../test-support/database.ts';
import { pollUntil } from '../../tiktok/sandbox-test-kit.ts';
import { WAKE_CHANNEL } from './wake-listener.ts';
import { createWakeAnnouncer, startWakeTimers } from './wake-timers.ts';

const logger = pino({ level: 'silent' });
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A port nothing listens on (yet): connections to it are refused. */
async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((ready) => probe.listen(0, '127.0.0.1', ready));
  const address = probe.address();
  await new Promise<void>((closed) => probe.close(() => closed()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** Forwards `port` to the test PostgreSQL server, from now on. */
async function proxyToPostgres(port: number): Promise<void> {
  const target = new URL(testPostgresUrl);
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => socket.destroy());
      socket.on('close', () => sockets.delete(socket));
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((ready) => server.listen(port, '127.0.0.1', ready));
  cleanups.push(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((closed) => server.close(() => closed()));
  });
}

/**
 * Wake-up timers of live worker processes sharing one in-process bus (any object stands for the
 * database), each recording which posts it ran.
 */
async function liveProcesses(processes: string[]) {
  const db = {} as Kysely<Database>;
  const ranBy = new Map<string, string[]>();
  const timersOf = new Map<string, Awaited<ReturnType<typeof startWakeTimers>>>();
  for (const processId of processes) {
    const timers = await startWakeTimers({
      db,
      connectionString: null,
      wakingWithin: async () => [],
      run: async (postId) => {
        ranBy.set(postId, [...(ranBy.get(postId) ?? []), processId]);
      },
      concurrency: 4,
      logger,
      processId,
      liveProcesses: async () => processes,
    });
    cleanups.push(() => timers.stop());
    timersOf.set(processId, timers);
  }
  return { db, ranBy, timersOf };
}

describe('publish wake-up timers', () => {
  it.skipIf(testDatabaseKind() !== 'postgres')(
    'start while PostgreSQL refuses LISTEN, connect later with backoff, and then hear NOTIFY',
    async () => {
      const port = await freePort();
      const url = new URL(testPostgresUrl);
      url.host = `127.0.0.1:${port}`;
      const ran: string[] = [];
      const timers = await startWakeTimers({
        db: {} as Kysely<Database>,
        connectionString: url.toString(),
        wakingWithin: async () => [],
        run: async (postId) => {
          ran.push(postId);
        },
        concurrency: 4,
        logger,
        listenRetryMs: 50,
      });
      cleanups.push(() => timers.stop());
      // Started, though the connection was refused: the queue wakes posts meanwhile.
      expect(timers.listening()).toBe(false);
      await proxyToPostgres(port);
      await pollUntil(
        async () => timers.listening(),
        (up) => up,
        { timeoutMs: 15_000, intervalMs: 50 },
      );
      const postId = randomUUID();
      const handedOver = randomUUID();
      const notifier = new pg.Client({ connectionString: testPostgresUrl });
      await notifier.connect();
      try {
        await notifier.query('select pg_notify($1, $2)', [
          WAKE_CHANNEL,
          `${postId} ${new Date().toISOString()}`,
        ]);
        // A wake-up handed over with its lead: due in 10 s, armed 10 s early, so at once.
        await notifier.query('select pg_notify($1, $2)', [
          WAKE_CHANNEL,
          `${handedOver} ${new Date(Date.now() + 10_000).toISOString()} 10000`,
        ]);
      } finally {
        await notifier.end();
      }
      await pollUntil(
        async () => ran,
        (posts) => posts.includes(postId) && posts.includes(handedOver),
        { timeoutMs: 5_000, intervalMs: 50 },
      );
    },
  );

  it.skipIf(testDatabaseKind() !== 'postgres')(
    'splits the posts with a process that joins as soon as it is listening, not at the next refresh',
    async () => {
      const db = {} as Kysely<Database>;
      // worker_processes as each process would read it: the second registers before it starts.
      const live = ['process-a'];
      const start = async (processId: string) => {
        const timers = await startWakeTimers({
          db,
          connectionString: testPostgresUrl,
          wakingWithin: async () => [],
          run: async () => undefined,
          concurrency: 4,
          logger,
          processId,
          liveProcesses: async () => [...live],
          // No periodic refresh within the test: only the join's NOTIFY can tell the first.
          membershipRefreshMs: 600_000,
        });
        cleanups.push(() => timers.stop());
        return timers;
      };
      const first = await start('process-a');
      expect(first.members()).toEqual(['process-a']);
      live.push('process-b');
      const second = await start('process-b');
      expect(second.members()).toEqual(['process-a', 'process-b']);
      // Before, the first kept waking every post for up to MEMBERSHIP_REFRESH_MS (5 s): two runs
      // of each of the newcomer's posts.
      await pollUntil(
        async () => first.members(),
        (members) => members?.length === 2,
        { timeoutMs: 10_000, intervalMs: 20 },
      );
    },
  );

  it("hands a wake-up computed in another process (a pg-boss job's run) to the post's own process", async () => {
    const { ranBy, timersOf } = await liveProcesses(['process-a', 'process-b']);
    // Every post's run was process-a's (its job fell there): each paced post's next wake-up.
    const postIds = Array.from({ length: 40 }, () => randomUUID());
    const soon = new Date(Date.now() + 50);
    for (const postId of postIds) timersOf.get('process-a')?.arm(postId, soon, 0);
    await pollUntil(
      async () => ranBy.size,
      (size) => size === postIds.length,
      { timeoutMs: 10_000, intervalMs: 20 },
    );
    // Each post once, in its own process: process-b ran its share, though process-a armed all.
    expect([...ranBy.values()].every((by) => by.length === 1)).toBe(true);
    const ranInB = [...ranBy.values()].filter((by) => by[0] === 'process-b').length;
    expect(ranInB).toBeGreaterThan(0);
    expect(ranInB).toBeLessThan(postIds.length);
  });

  it('runs each announced wake-up in one of the live worker processes', async () => {
    const processes = ['process-a', 'process-b'];
    const { db, ranBy } = await liveProcesses(processes);
    const announce = createWakeAnnouncer({ db, kind: 'pglite' });
    const postIds = Array.from({ length: 40 }, () => randomUUID());
    for (const postId of postIds) await announce(postId, new Date());
    await pollUntil(
      async () => ranBy.size,
      (size) => size === postIds.length,
      { timeoutMs: 10_000, intervalMs: 20 },
    );
    // Each post once, and both processes have a share.
    expect([...ranBy.values()].every((by) => by.length === 1)).toBe(true);
    const shares = processes.map(
      (processId) => [...ranBy.values()].filter((by) => by[0] === processId).length,
    );
    expect(Math.min(...shares)).toBeGreaterThan(0);
  });
});
