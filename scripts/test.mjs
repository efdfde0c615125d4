// `npm test`: everything CI checks, keeping both cores busy, then where the time went.
//
//   engines     the installed packages support the Node the project promises
//   checks      types, lint, format (`check:*`, one at a time; output held until they end)
//   build       the web app and the compiled server, as `npm start` runs them
//   vitest      every project, in two lanes once the build is there (the browser files need it):
//               lane 1: web, packages and server files (two at a time), then some browser files;
//               lane 2: the other browser files, one at a time from the start.
//
// The checks run beside the build and the tests: they need neither. A server file mostly waits
// (PostgreSQL, timers, child processes) while a browser file, its server and Chromium keep a core
// busy, so the browser files run beside the server files; they are shared between the lanes,
// longest first, from the committed durations (scripts/test-durations.json), so that both lanes
// end together. At the end: a table of the phases and of the 20 slowest test files
// (scripts/vitest-files.ts times them).
//
//   --full             the full tier: chaos tests at full size, heavy database-independent files
//                      on both databases (TEST_TIER=full, CHAOS_SCALE=full; README, "Tests")
//   --save-durations   rewrite scripts/test-durations.json from this run (longest files first)
// Any other argument goes to one vitest run instead of the lanes (a file filter, `--project e2e`…).
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const full = args.includes('--full');
const saveDurations = args.includes('--save-durations');
const vitestArgs = args.filter((arg) => arg !== '--full' && arg !== '--save-durations');

const tierEnv = full ? { TEST_TIER: 'full', CHAOS_SCALE: 'full' } : {};
const phases = [];

const clock = (ms) => new Date(ms).toISOString().slice(11, 19);
const seconds = (ms) => `${(ms / 1000).toFixed(0)} s`;

/**
 * Runs `command`, timed as a phase. `hold` keeps its output until it ends (then prints it whole);
 * `label` prefixes each line it prints, for two phases printing at once.
 */
function phase(name, command, commandArgs, { env = {}, hold = false, label } = {}) {
  const started = Date.now();
  console.log(`[${clock(started)}] ${name}: started`);
  return new Promise((resolve) => {
    const child = spawn(command, commandArgs, {
      cwd: root,
      env: { ...process.env, ...tierEnv, ...env },
      stdio: hold || label ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    });
    const held = [];
    const print = label ? prefixLines(`[${label}] `) : (chunk) => held.push(chunk);
    child.stdout?.on('data', print);
    child.stderr?.on('data', print);
    child.on('close', (code, signal) => {
      const ended = Date.now();
      const ok = code === 0;
      if (hold) process.stdout.write(Buffer.concat(held));
      console.log(
        `[${clock(ended)}] ${name}: ${ok ? 'passed' : `FAILED (${signal ?? code})`} in ${seconds(ended - started)}`,
      );
      phases.push({ name, started, ended, ok });
      resolve(ok);
    });
  });
}

/** Writes whole lines only, each after `prefix`: two processes' output stays readable. */
function prefixLines(prefix) {
  let partial = '';
  return (chunk) => {
    const lines = (partial + chunk.toString()).split('\n');
    partial = lines.pop() ?? '';
    if (lines.length > 0) process.stdout.write(lines.map((line) => prefix + line + '\n').join(''));
  };
}

/**
 * The web build runs with made-up secrets in its environment, as a developer's shell with real
 * ones would: e2e/bundle-secrets.e2e.ts then scans this very build for them, instead of
 * making a second one. They are recorded beside the build's index.html digest, so that test can
 * tell a build it may scan from one made another way.
 */
function buildCanaries() {
  const canaries = Object.fromEntries(
    ['TIKTOK_CLIENT_SECRET', 'SESSION_SECRET', 'TOKEN_ENCRYPTION_KEY'].map((name) => [
      name,
      `canary-${name.toLowerCase()}-${randomBytes(12).toString('hex')}`,
    ]),
  );
  return canaries;
}

function recordCanaries(canaries) {
  const index = path.join(root, 'apps/web/dist/index.html');
  if (!existsSync(index)) return;
  const digest = createHash('sha256').update(readFileSync(index)).digest('hex');
  mkdirSync(path.join(root, '.tmp'), { recursive: true });
  writeFileSync(
    path.join(root, '.tmp/build-canaries.json'),
    `${JSON.stringify({ indexDigest: digest, canaries }, null, 1)}\n`,
  );
}

/** Every file this run's vitest processes timed (scripts/vitest-files.ts, one file per process). */
function timedFiles() {
  const dir = path.join(root, '.tmp/vitest-files');
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => JSON.parse(readFileSync(path.join(dir, name), 'utf8')));
}

function saveCommittedDurations() {
  const durations = Object.fromEntries(
    timedFiles()
      .filter((entry) => entry.state === 'passed')
      .sort((a, b) => b.ms - a.ms)
      .map((entry) => [`${entry.project} ${entry.file}`, Math.round(entry.ms / 100) * 100]),
  );
  writeFileSync(
    path.join(root, 'scripts/test-durations.json'),
    `${JSON.stringify(durations, null, 2)}\n`,
  );
  console.log(`scripts/test-durations.json: ${Object.keys(durations).length} files`);
}

function report(startedAt) {
  const endedAt = Date.now();
  console.log('\nPhases');
  console.log('phase      start     took    result');
  for (const { name, started, ended, ok } of phases.sort((a, b) => a.started - b.started)) {
    console.log(
      `${name.padEnd(10)} ${clock(started)}  ${seconds(ended - started).padStart(6)}  ${ok ? 'passed' : 'FAILED'}`,
    );
  }
  console.log(
    `${'npm test'.padEnd(10)} ${clock(startedAt)}  ${seconds(endedAt - startedAt).padStart(6)}`,
  );
  const slowest = timedFiles()
    .sort((a, b) => b.ms - a.ms)
    .slice(0, 20);
  if (slowest.length > 0) {
    console.log('\nSlowest test files');
    for (const { project, file, ms, state } of slowest) {
      console.log(
        `${seconds(ms).padStart(6)}  ${project.padEnd(16)} ${file}${state === 'passed' ? '' : `  (${state})`}`,
      );
    }
  }
}

/**
 * The browser files shared between the two lanes: lane 2 starts them at once, lane 1 after its
 * other files (their committed durations over its two workers); each file, longest first, goes
 * to the lane that is free first. A file with no committed duration counts as a long one.
 */
function shareBrowserFiles() {
  const durations = JSON.parse(
    readFileSync(path.join(root, 'scripts/test-durations.json'), 'utf8'),
  );
  const browserFiles = readdirSync(path.join(root, 'e2e'))
    .filter((name) => name.endsWith('.e2e.ts'))
    .map((name) => ({ file: `e2e/${name}`, ms: durations[`e2e e2e/${name}`] ?? 120_000 }))
    .sort((a, b) => b.ms - a.ms);
  const otherMs = Object.entries(durations)
    .filter(([key]) => !key.startsWith('e2e '))
    .reduce((sum, [, ms]) => sum + ms, 0);
  const lanes = [
    { freeAt: otherMs / 2, files: [] },
    { freeAt: 0, files: [] },
  ];
  for (const { file, ms } of browserFiles) {
    const lane = lanes[0].freeAt < lanes[1].freeAt ? lanes[0] : lanes[1];
    lane.files.push(file);
    lane.freeAt += ms;
  }
  return lanes.map((lane) => lane.files);
}

/** Vitest in two lanes (see the top), or once with the arguments given. */
async function runVitest() {
  rmSync(path.join(root, '.tmp/vitest-files'), { recursive: true, force: true });
  if (vitestArgs.length > 0) return phase('vitest', 'npx', ['vitest', 'run', ...vitestArgs]);
  const [laterBrowserFiles, browserFiles] = shareBrowserFiles();
  const vitest = (name, label, projectArgs) =>
    phase(name, 'npx', ['vitest', 'run', ...projectArgs], { label });
  const lane1 = vitest('vitest 1', '1', ['--project', '!e2e']).then(async (ok) =>
    laterBrowserFiles.length === 0
      ? ok
      : (await vitest('vitest 1b', '1', ['--project', 'e2e', ...laterBrowserFiles])) && ok,
  );
  const lane2 = vitest('vitest 2', '2', ['--project', 'e2e', ...browserFiles]);
  const [ok1, ok2] = await Promise.all([lane1, lane2]);
  return ok1 && ok2;
}

const startedAt = Date.now();
const engines = await phase('engines', 'node', ['scripts/check-engines.mjs']);
const checks = phase(
  'checks',
  'npx',
  [
    'run-p',
    '--max-parallel',
    '1',
    '--continue-on-error',
    '--aggregate-output',
    '--print-label',
    'check:*',
  ],
  { hold: true },
);
const canaries = buildCanaries();
const built = await phase('build', 'npm', ['run', 'build'], { env: canaries });
if (built) recordCanaries(canaries);
const tested = built ? await runVitest() : false;
const checked = await checks;
if (tested && saveDurations) saveCommittedDurations();
report(startedAt);
process.exitCode = engines && checked && built && tested ? 0 : 1;
