// The compiled server (`npm run build`, `npm start`): what esbuild's bundle keeps working from
// apps/server/dist, and when `npm start` rebuilds it. The browser suites run that same build.
import { execFile } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  buildServer,
  ensureServerBuild,
  requireServerBuild,
  serverBuildState,
} from '../scripts/server-build.mjs';
import { repoRoot } from './support/server.ts';

const execFileAsync = promisify(execFile);

describe('a small repository laid out like ours', () => {
  let root: string;
  const file = (relative: string) => path.join(root, relative);
  const write = (relative: string, text: string) => {
    mkdirSync(path.dirname(file(relative)), { recursive: true });
    writeFileSync(file(relative), text);
  };
  /** Moves a file's mtime `seconds` into the past (negative: the future). */
  const age = (relative: string, seconds: number) => {
    const when = new Date(Date.now() - seconds * 1000);
    utimesSync(file(relative), when, when);
  };

  beforeEach(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'cadence-build-'));
    write('apps/server/package.json', '{ "type": "module" }\n');
    write(
      'packages/greeting/package.json',
      '{ "name": "@cadence/greeting", "type": "module", "exports": { ".": "./src/index.ts" } }\n',
    );
    write(
      'packages/greeting/src/index.ts',
      'export const greeting = (name: string): string => `bonjour ${name}`;\n',
    );
    mkdirSync(file('node_modules/@cadence'), { recursive: true });
    symlinkSync(file('packages/greeting'), file('node_modules/@cadence/greeting'));
    write('apps/server/src/db/migrations/0001-first.sql', 'create table first ();\n');
    // Like migrate.ts and app.ts: files found relative to the module's own directory.
    write(
      'apps/server/src/db/migrations.ts',
      [
        "import { readdirSync } from 'node:fs';",
        "import path from 'node:path';",
        "export const migrations = (): string[] => readdirSync(path.join(import.meta.dirname, 'migrations'));",
        '',
      ].join('\n'),
    );
    write(
      'apps/server/src/main.ts',
      [
        "import { greeting } from '@cadence/greeting';",
        "import { migrations } from './db/migrations.ts';",
        "console.log(greeting('main'), migrations().join(','));",
        '',
      ].join('\n'),
    );
    write('apps/server/src/worker.ts', "console.log('worker');\n");
    write('apps/server/src/admin.ts', "console.log('admin');\n");
    write('apps/server/src/main.test.ts', '// never bundled\n');
    // Everything was written a minute ago; the build (below) is from 30 s ago.
    for (const relative of [
      'apps/server/package.json',
      'packages/greeting/package.json',
      'packages/greeting/src/index.ts',
      'apps/server/src/db/migrations/0001-first.sql',
      'apps/server/src/db/migrations',
      'apps/server/src/db/migrations.ts',
      'apps/server/src/main.ts',
      'apps/server/src/worker.ts',
      'apps/server/src/admin.ts',
      'apps/server/src/main.test.ts',
    ])
      age(relative, 60);
  });
  afterEach(() => {
    vi.restoreAllMocks();
    rmSync(root, { recursive: true, force: true });
  });

  async function buildThirtySecondsAgo(): Promise<void> {
    await buildServer({ root });
    age('apps/server/dist/build-info.json', 30);
  }

  it('bundles the workspace packages and runs from dist with its migrations beside it', async () => {
    await buildThirtySecondsAgo();

    const main = readFileSync(file('apps/server/dist/main.js'), 'utf8');
    expect(main).not.toContain('@cadence/greeting');
    const { stdout } = await execFileAsync(process.execPath, [file('apps/server/dist/main.js')]);
    expect(stdout.trim()).toBe('bonjour main 0001-first.sql');
  });

  it('is missing before the first build: tests say to run npm run build, npm start builds it', async () => {
    expect(serverBuildState(root)).toEqual({ state: 'missing' });
    await expect(requireServerBuild(root)).rejects.toThrow(
      'The compiled server (apps/server/dist) is missing: run `npm run build`',
    );
    expect(existsSync(file('apps/server/dist'))).toBe(false);

    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await ensureServerBuild(root);

    expect(logged).toHaveBeenCalledWith('Building the server (apps/server/dist is missing)…');
    expect(serverBuildState(root)).toEqual({ state: 'fresh' });
  });

  it('is fresh after a build, and editing a test or adding an unused file changes nothing', async () => {
    await buildThirtySecondsAgo();
    expect(serverBuildState(root)).toEqual({ state: 'fresh' });

    write('apps/server/src/main.test.ts', '// edited\n');
    write('apps/server/src/unused.ts', 'export const unused = 1;\n');
    expect(serverBuildState(root)).toEqual({ state: 'fresh' });
  });

  it.each([
    ['an entry point', 'apps/server/src/main.ts'],
    ['a module it imports', 'apps/server/src/db/migrations.ts'],
    ['a workspace package', 'packages/greeting/src/index.ts'],
    ['a migration', 'apps/server/src/db/migrations/0001-first.sql'],
    ['an exports map', 'packages/greeting/package.json'],
  ])('is stale once %s is edited after the build', async (_what, relative) => {
    await buildThirtySecondsAgo();
    write(relative, `${readFileSync(file(relative), 'utf8')}\n`);

    expect(serverBuildState(root)).toEqual({ state: 'stale', newer: relative });
  });

  it('is stale once a migration is added or a bundled file deleted', async () => {
    await buildThirtySecondsAgo();
    write('apps/server/src/db/migrations/0002-second.sql', 'create table second ();\n');
    expect(serverBuildState(root)).toEqual({
      state: 'stale',
      newer: 'apps/server/src/db/migrations',
    });

    await buildThirtySecondsAgo();
    rmSync(file('apps/server/src/db/migrations.ts'));
    expect(serverBuildState(root)).toEqual({
      state: 'stale',
      newer: 'apps/server/src/db/migrations.ts',
    });
  });

  it.each([
    ['npm start', ensureServerBuild],
    ['the browser suites', requireServerBuild],
  ])('%s rebuilds a stale build, so the new code runs', async (_who, prepare) => {
    await buildThirtySecondsAgo();
    write(
      'packages/greeting/src/index.ts',
      'export const greeting = (name: string) => `hi ${name}`;\n',
    );

    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await prepare(root);

    expect(logged).toHaveBeenCalledWith(
      'Rebuilding the server (packages/greeting/src/index.ts changed)…',
    );
    expect(serverBuildState(root)).toEqual({ state: 'fresh' });
    const { stdout } = await execFileAsync(process.execPath, [file('apps/server/dist/main.js')]);
    expect(stdout.trim()).toBe('hi main 0001-first.sql');
  });
});

describe('the real build', () => {
  let dataDir: string | undefined;
  afterEach(() => {
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('maps stack traces from apps/server/dist back to the TypeScript sources', async () => {
    await requireServerBuild(repoRoot);
    expect(existsSync(path.join(repoRoot, 'apps/server/dist/worker.js.map'))).toBe(true);
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'cadence-build-data-'));
    // Nothing listens on port 1: migrate() fails at once and the error reaches the top level.
    const failure: unknown = await execFileAsync(
      process.execPath,
      ['--enable-source-maps', 'apps/server/dist/worker.js'],
      {
        cwd: repoRoot,
        env: {
          PATH: process.env.PATH,
          DATA_DIR: dataDir,
          DATABASE_URL: 'postgres://postgres@127.0.0.1:1/cadence',
          // The process guard logs the uncaught error (with its stack) at fatal, then exits.
          LOG_LEVEL: 'fatal',
        },
      },
    ).then(
      () => undefined,
      (error: unknown) => error,
    );

    expect(failure).toMatchObject({
      code: 1,
      stdout: expect.stringMatching(
        /ECONNREFUSED[\s\S]*at async migrate \(\S*apps\/server\/src\/db\/migrate\.ts:\d+:\d+\)[\s\S]*apps\/server\/src\/worker\.ts:\d+/,
      ),
    });
  });
});
