import { defineConfig } from 'vitest/config';
import { FileDurationsReporter, LongestFirstSequencer } from './scripts/vitest-files.ts';

// One `vitest run` runs every project: pure packages, the server against PGlite and against
// PostgreSQL, the web app in jsdom, and the end-to-end suite in Chromium. `npm test`
// (scripts/test.mjs) runs it beside the static checks.
//
// `npm test` (scripts/test.mjs) runs it twice side by side: the browser files in one process,
// one at a time, and every other project in the other, two files at a time. Vitest runs the web
// files first (group 0), then the packages' and the server's, one project after another (a worker
// that keeps its modules from file to file must not carry them into another project). Within a
// project the longest files go first (scripts/test-durations.json): the last file to start is a
// short one, so the workers finish a project close together.
export default defineConfig({
  test: {
    // Two files at a time (Vitest's default would be one on a 2-core machine): much of a server
    // file's time is spent waiting on PostgreSQL, timers and child processes. `npm test` runs the
    // browser files beside them, in another Vitest: three at a time in all.
    maxWorkers: 2,
    // A worker process of the `forks` pool runs file after file instead of a new process per file.
    // Whether a file starts from fresh modules is each project's `isolate`: the server's files do
    // not (a new module graph per file costs each file seconds of CPU before its first test);
    // packages and e2e do.
    poolOptions: { forks: { isolate: false } },
    sequence: { sequencer: LongestFirstSequencer },
    reporters: ['default', new FileDurationsReporter()],
    projects: [
      {
        test: {
          name: 'packages',
          sequence: { groupOrder: 1 },
          include: ['packages/**/*.test.ts'],
          environment: 'node',
          isolate: true,
        },
      },
      {
        test: {
          name: 'server:pglite',
          sequence: { groupOrder: 1 },
          include: ['apps/server/src/**/*.test.ts'],
          // Files that need PostgreSQL itself (several processes on one database, its pool).
          exclude: ['apps/server/src/**/*.pg.test.ts'],
          environment: 'node',
          env: { TEST_DATABASE: 'pglite' },
          // Modules stay loaded from one file to the next in a worker. Each file still opens its
          // own database and app and closes them; no server module keeps state from one app to
          // the next (caches are per app or of constants).
          isolate: false,
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'server:postgres',
          sequence: { groupOrder: 1 },
          // Every file that touches the database runs on both (`*.db.test.ts`), and the files
          // that need PostgreSQL itself only here (`*.pg.test.ts`).
          include: ['apps/server/src/**/*.db.test.ts', 'apps/server/src/**/*.pg.test.ts'],
          environment: 'node',
          env: { TEST_DATABASE: 'postgres' },
          // As server:pglite.
          isolate: false,
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'web',
          include: ['apps/web/src/**/*.test.{ts,tsx}'],
          environment: 'node',
          // A new worker thread per file: in a reused process, jsdom files failed (labels not
          // found) even with fresh modules.
          pool: 'threads',
          // Vitest runs its pools side by side: the web files go first, on their own, so that no
          // more than maxWorkers files ever run at once (the other projects are group 1).
          sequence: { groupOrder: 0 },
          // A jsdom render behind a data router takes seconds on a loaded 2-core machine.
          testTimeout: 15_000,
        },
      },
      {
        test: {
          name: 'e2e',
          sequence: { groupOrder: 1 },
          // One browser file at a time: a browser file, its server and Chromium keep most of a
          // core busy. `npm test` runs them beside the other projects, in two lanes.
          pool: 'forks',
          poolOptions: { forks: { singleFork: true } },
          isolate: true,
          include: ['e2e/**/*.e2e.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 180_000,
          // `expect.poll` waits for what a page shows; vitest's default deadline (1 s) is shorter
          // than a busy machine takes to paint an announcement. A poll still ends as soon as its
          // condition holds.
          expect: { poll: { timeout: 15_000 } },
        },
      },
    ],
  },
});
