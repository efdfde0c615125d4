import { defineConfig } from 'vitest/config';

// One `vitest run` runs every project: pure packages, the server against PGlite and against
// PostgreSQL, the web app in jsdom, and the end-to-end suite in Chromium.
export default defineConfig({
  test: {
    // Vitest's default is one worker per core minus one: a single worker on a 2-core CI machine,
    // where most test time is spent waiting on PostgreSQL, ffmpeg, Chromium and child processes.
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'packages',
          include: ['packages/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'server:pglite',
          include: ['apps/server/src/**/*.test.ts'],
          environment: 'node',
          env: { TEST_DATABASE: 'pglite' },
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'server:postgres',
          include: ['apps/server/src/**/*.db.test.ts'],
          environment: 'node',
          env: { TEST_DATABASE: 'postgres' },
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'web',
          include: ['apps/web/src/**/*.test.{ts,tsx}'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'e2e',
          // One browser file at a time, after the other files (vitest runs a project's singleFork
          // files last). Letting two run side by side, or beside the server files, was measured in
          // a clean-clone CI: vitest took 1,516 s against 1,130-1,160 s this way, since a browser
          // file, its server and Chromium compete for the same 2 cores as everything else.
          pool: 'forks',
          poolOptions: { forks: { singleFork: true } },
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
