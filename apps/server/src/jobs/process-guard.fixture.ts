// A worker process for process-guard.db.test.ts (not a test itself): the real guard and queue
// mechanism, with handlers that fail in the ways that used to kill the process. Reads commands on
// stdin ('send <kind>', 'throw-outside'), writes pino JSON lines on stdout.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import pino from 'pino';
import { z } from 'zod';
import { openDatabase } from '../db/client.ts';
import { createBoss } from './boss.ts';
import { installProcessGuards } from './process-guard.ts';
import { defineQueue } from './queue.ts';

const logger = pino({ level: 'info' });
installProcessGuards(logger);

const database = await openDatabase({
  databaseUrl: process.env.DATABASE_URL ?? null,
  pgliteDataDir: 'memory://',
});
const boss = createBoss(database);
boss.on('error', (error) => logger.error({ err: error }, 'job queue error'));
await boss.start();

const kinds = ['stream', 'rejection', 'fine'] as const;
const queue = defineQueue({
  name: 'test.process-guard',
  payload: z.object({ v: z.literal(1), kind: z.enum(kinds) }),
  expireInSeconds: 60,
  retryDelaySeconds: 0,
  describe: (payload) => ({ kind: payload.kind }),
});
const never = () => new Promise<never>(() => undefined);
await queue.work(boss, logger, {
  concurrency: 1,
  run: async (payload) => {
    switch (payload.kind) {
      case 'stream':
        // The crash of issue 9: a read stream of a file ffmpeg never wrote, no 'error' listener.
        createReadStream('/nonexistent/cadence-thumbnail.jpg');
        return never();
      case 'rejection':
        void Promise.reject(new Error('a promise nobody awaited'));
        return never();
      case 'fine':
        logger.info({ event: 'ran', kind: payload.kind }, 'job ran');
        return;
    }
  },
  giveUp: (payload) => {
    logger.info({ event: 'gave-up', kind: payload.kind }, 'job given up');
    return Promise.resolve();
  },
});

const command = z.union([
  z.tuple([z.literal('send'), z.enum(kinds)]),
  z.tuple([z.literal('throw-outside')]),
]);
createInterface({ input: process.stdin }).on('line', (line) => {
  const parsed = command.safeParse(line.trim().split(' '));
  if (!parsed.success) return;
  const [verb, kind] = parsed.data;
  if (verb === 'throw-outside') {
    setTimeout(() => {
      throw new Error('outside any job');
    }, 0);
  } else {
    void queue.send(boss, { v: 1, kind });
  }
});
logger.info({ event: 'ready' }, 'fixture ready');
