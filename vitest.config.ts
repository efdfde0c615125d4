import { defineConfig } from 'vitest/config';

// One `vitest run` runs every project: pure packages, the server against PGlite and against
// PostgreSQL, the web app in jsdom, and the end-to-end suite in Chromium.
export default defineConfig({
  test: {
    // Vitest's default is one worker per core minus one: a single worker on a 2-core CI machine,
    // where most test time is spent waiting on PostgreSQL, ffmpeg, Chromium and child processes.
    maxWorkers: 2,
    // A worker process of the `forks` pool runs file after file instead of a new process per file
    // (Vitest still keeps the projects apart). Whether a file starts from fresh modules is each
    // project's `isolate`: the server's files do not (server:pglite), packages and e2e do, as
    // before. The web files run in the `threads` pool, a new worker thread per file: in a reused
    // process, three jsdom files failed (labels not found) even with fresh modules.
    poolOptions: { forks: { isolate: false } },
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
          environment: 'node',
          env: { TEST_DATABASE: 'pglite' },
          // Modules stay loaded from one file to the next in a worker. A new process and module
          // graph per file cost each server file about 3 s of CPU before its first test (the
          // app's modules loaded and warmed up again): 17 files took 112-121 s of CPU isolated,
          // 61 s not. Each file still opens its own database and app and closes them; no server
          // module keeps state from one app to the next (caches are per app or of constants).
          isolate: false,
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'server:postgres',
          sequence: { groupOrder: 1 },
          include: ['apps/server/src/**/*.db.test.ts'],
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
          // The production build of the web app, checked for secrets: a Vite build of its own
          // (~45 s of CPU on a quiet host, 110 s at load 9), four times all the other web files
          // together. Run among the web files, it held their phase, and the second core waited
          // for it once they were done; here it runs beside the server files.
          name: 'web:bundle',
          sequence: { groupOrder: 1 },
          include: ['apps/web/src/bundle-secrets.test.ts'],
          environment: 'node',
          isolate: true,
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
      {
        test: {
          name: 'web',
          include: ['apps/web/src/**/*.test.{ts,tsx}'],
          exclude: ['apps/web/src/bundle-secrets.test.ts'],
          environment: 'node',
          // Each file in a thread of its own (see poolOptions above); as fast as a process each.
          pool: 'threads',
          // Vitest runs its pools side by side: the web files go first, on their own, so that no
          // more than maxWorkers files ever run at once (the other projects are group 1).
          sequence: { groupOrder: 0 },
          // A jsdom render behind a data router takes ~3 s on a loaded 2-core machine: 5 s (the
          // default) failed a meme-form test under load, never the behaviour it checks.
          testTimeout: 15_000,
        },
      },
      {
        test: {
          name: 'e2e',
          sequence: { groupOrder: 1 },
          // One browser file at a time, after the other files (vitest runs a project's singleFork
          // files last). Letting two run side by side and beside the server files gained nothing
          // in clean-clone CI runs (vitest 1,516 s, against 1,540 s this way two runs later): a
          // browser file, its server and Chromium compete for the same 2 cores as everything
          // else, and the extra load exposed races in the browser files' waits.
          pool: 'forks',
          poolOptions: { forks: { singleFork: true } },
          isolate: true,
          include: ['e2e/**/*.e2e.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 180_000,
          // `expect.poll` waits for what a page shows; vitest's default deadline (1 s) is shorter
          // than a busy machine takes to paint an announcement (the calendar's keyboard move
          // failed on it in CI). A poll still ends as soon as its condition holds.
          expect: { poll: { timeout: 15_000 } },
        },
      },
    ],
  },
});
