// The compiled server: apps/server/src/{main,worker,admin}.ts bundled by esbuild into
// apps/server/dist/ (ESM, node 20), with npm packages left external and the workspace packages
// (TypeScript sources) bundled in. Plain JavaScript so that `npm start` runs without tsx.
import { spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
} from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';

export const repoRoot = path.resolve(import.meta.dirname, '..');

/** The server's entry points; each becomes `apps/server/dist/<name>.js`. */
export const serverEntries = ['main', 'worker', 'admin'];

/**
 * Written last by a successful build: its mtime is the time the build started reading sources, and
 * it lists the files the build was made from (esbuild's inputs, the migrations).
 */
const BUILD_INFO = 'build-info.json';

/** @param {string} root */
function layout(root) {
  const serverDir = path.join(root, 'apps/server');
  const packagesDir = path.join(root, 'packages');
  return {
    serverDir,
    distDir: path.join(serverDir, 'dist'),
    migrationsDir: path.join(serverDir, 'src/db/migrations'),
    // What changes a build's output without being one of its inputs: workspace exports maps, and
    // this script's build options.
    buildFiles: [
      path.join(serverDir, 'package.json'),
      ...(existsSync(packagesDir)
        ? readdirSync(packagesDir).map((name) => path.join(packagesDir, name, 'package.json'))
        : []),
      path.join(root, 'scripts/server-build.mjs'),
    ].filter((file) => existsSync(file)),
  };
}

/**
 * @param {string} file
 * @returns {{ inputs: string[] } | undefined}
 */
function readBuildInfo(file) {
  try {
    const info = JSON.parse(readFileSync(file, 'utf8'));
    return Array.isArray(info?.inputs) && info.inputs.every((input) => typeof input === 'string')
      ? { inputs: info.inputs }
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether `apps/server/dist` can be run: `missing` (an entry or the build info is absent),
 * `stale` (a file it was built from changed or went away since, named in `newer`; the migrations
 * directory counts, so a new migration does too) or `fresh`. A cheap mtime check of those
 * files only: editing a test or a file the server does not import costs no rebuild.
 * @param {string} [root]
 * @returns {{ state: 'missing' } | { state: 'stale', newer: string } | { state: 'fresh' }}
 */
export function serverBuildState(root = repoRoot) {
  const { distDir, migrationsDir, buildFiles } = layout(root);
  const infoFile = path.join(distDir, BUILD_INFO);
  const info = readBuildInfo(infoFile);
  const entriesExist = serverEntries.every((name) => existsSync(path.join(distDir, `${name}.js`)));
  if (info === undefined || !entriesExist) return { state: 'missing' };
  const builtAt = statSync(infoFile).mtimeMs;
  const sources = [
    ...info.inputs.map((input) => path.join(root, input)),
    migrationsDir,
    ...buildFiles,
  ];
  for (const file of sources) {
    const mtimeMs = statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? Infinity;
    if (mtimeMs > builtAt) return { state: 'stale', newer: path.relative(root, file) };
  }
  return { state: 'fresh' };
}

/** @param {unknown} error */
const errorCode = (error) => (error instanceof Error && 'code' in error ? error.code : undefined);

/**
 * esbuild leaves npm packages to node_modules at run time, except our workspace packages: they
 * export TypeScript sources, which node cannot load.
 * @type {import('esbuild').Plugin}
 */
const externalNpmPackages = {
  name: 'external-npm-packages',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@cadence/') ? undefined : { path: args.path, external: true },
    );
  },
};

/**
 * Bundles the server into `apps/server/dist/`. It builds into a sibling directory and swaps it in,
 * so a process starting meanwhile sees the old build or the new one, never half of each.
 * @param {{ root?: string }} [options]
 */
export async function buildServer({ root = repoRoot } = {}) {
  const { serverDir, distDir, migrationsDir } = layout(root);
  const esbuild = await import('esbuild');
  const startedAt = new Date();
  const staging = path.join(serverDir, `dist.building-${process.pid}`);
  rmSync(staging, { recursive: true, force: true });
  try {
    const { metafile } = await esbuild.build({
      absWorkingDir: root,
      entryPoints: Object.fromEntries(
        serverEntries.map((name) => [name, path.join(serverDir, 'src', `${name}.ts`)]),
      ),
      outdir: staging,
      bundle: true,
      // Keeps `await import()` lazy (the AWS SDK only loads with STORAGE=s3). Chunks must stay next
      // to the entries: code using `import.meta.dirname` (migrations, the web app's dist) relies on
      // the bundle sitting exactly one level below apps/server, like src/ does.
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      sourcemap: 'linked',
      // Node maps stack frames back to the .ts files on disk; no need to embed their text.
      sourcesContent: false,
      plugins: [externalNpmPackages],
      metafile: true,
      logLevel: 'warning',
    });
    // `migrate.ts` reads `<its directory>/migrations/*.sql` at run time.
    cpSync(migrationsDir, path.join(staging, 'migrations'), { recursive: true });
    const migrations = readdirSync(migrationsDir).map((file) =>
      path.relative(root, path.join(migrationsDir, file)),
    );
    const info = {
      builtAt: startedAt.toISOString(),
      // esbuild's input paths are relative to absWorkingDir, i.e. the repository root.
      inputs: [...Object.keys(metafile.inputs), ...migrations].sort(),
    };
    await writeFile(path.join(staging, BUILD_INFO), `${JSON.stringify(info, null, 2)}\n`);
    // Sources saved while esbuild was reading them must count as newer than this build.
    utimesSync(path.join(staging, BUILD_INFO), startedAt, startedAt);
    const previous = `${distDir}.old-${process.pid}`;
    try {
      renameSync(distDir, previous);
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') throw error;
    }
    try {
      renameSync(staging, distDir);
    } catch (error) {
      // Another process swapped its own build in meanwhile, made from the same sources: keep it.
      if (errorCode(error) !== 'ENOTEMPTY' && errorCode(error) !== 'EEXIST') throw error;
    }
    rmSync(previous, { recursive: true, force: true });
  } finally {
    rmSync(staging, { recursive: true, force: true });
    // esbuild's service process would otherwise live on next to the server `npm start` runs.
    await esbuild.stop();
  }
}

/**
 * Builds the server when it is missing or older than its sources (saying why on stderr, which
 * keeps stdout for the program's own output), then returns. Used by `npm start`, `npm run worker`
 * and `npm run admin`, so nobody runs old code.
 * @param {string} [root]
 */
export async function ensureServerBuild(root = repoRoot) {
  const status = serverBuildState(root);
  if (status.state === 'fresh') return;
  console.error(
    status.state === 'missing'
      ? 'Building the server (apps/server/dist is missing)…'
      : `Rebuilding the server (${status.newer} changed)…`,
  );
  await buildServer({ root });
}

/**
 * For tests that run the compiled server: throws, saying to run `npm run build`, when there is no
 * build (the web app is then most likely unbuilt too, and CI builds both before testing); rebuilds
 * the server like `npm start` does when its sources changed, so tests never run old code.
 * @param {string} [root]
 */
export async function requireServerBuild(root = repoRoot) {
  if (serverBuildState(root).state === 'missing')
    throw new Error(
      'The compiled server (apps/server/dist) is missing: run `npm run build` (or `npm run build:server`) first.',
    );
  await ensureServerBuild(root);
}

/**
 * Node's options for the compiled server. `--v8-pool-size=1`: one V8 background thread instead of
 * four (decision 040). On PGlite, V8 recompiles PostgreSQL's hot WASM functions with TurboFan on
 * those threads at start; each thread's malloc arena keeps the peak of the compilations it ran
 * (freed, not given back), so the idle memory depends on which thread got which function; one
 * thread keeps one arena. The server's own work runs on the main thread.
 */
export const serverNodeOptions = ['--enable-source-maps', '--v8-pool-size=1'];

/**
 * Node's arguments to run `apps/server/dist/<entry>.js` as `npm start`, `npm run worker` and `npm
 * run admin` do.
 * @param {string} entry
 * @param {string} [root]
 */
export function compiledEntryArgs(entry, root = repoRoot) {
  return [...serverNodeOptions, path.join(root, 'apps/server/dist', `${entry}.js`)];
}

/**
 * Runs `node <serverNodeOptions> apps/server/dist/<entry>.js …args` in the foreground: stdio
 * inherited, SIGINT/SIGTERM forwarded, and this process exits with the child's code.
 * @param {string} entry
 * @param {string[]} [args]
 * @param {NodeJS.ProcessEnv} [env]
 */
export function runCompiled(entry, args = [], env = process.env) {
  const child = spawn(process.execPath, [...compiledEntryArgs(entry), ...args], {
    cwd: repoRoot,
    stdio: 'inherit',
    env,
  });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}
