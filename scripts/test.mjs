// `npm test`: everything CI checks, keeping both cores busy, then where the time went.
//
//   engines     the installed packages support the Node the project promises
//   checks      types, lint, format (`check:*`, one at a time; output held until they end)
//   build       the web app and the compiled server, as `npm start` runs them
//   vitest      every project (starts once the build is there: the browser files need it)
//
// The checks run beside the build and the tests: they need neither. At the end: a table of the
// phases and of the 20 slowest test files (scripts/vitest-files.ts writes their durations).
//
//   --full             the full tier: chaos tests at full size, heavy database-independent files
//                      on both databases (TEST_TIER=full, CHAOS_SCALE=full; README, "Tests")
//   --save-durations   rewrite scripts/test-durations.json from this run (longest files first)
// Any other argument goes to vitest (a file filter, `--project e2e`…).
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
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

/** Runs `command`, timed as a phase; `hold` keeps its output until it ends (then prints it whole). */
function phase(name, command, commandArgs, { env = {}, hold = false } = {}) {
  const started = Date.now();
  console.log(`[${clock(started)}] ${name}: started`);
  return new Promise((resolve) => {
    const child = spawn(command, commandArgs, {
      cwd: root,
      env: { ...process.env, ...tierEnv, ...env },
      stdio: hold ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    });
    const held = [];
    child.stdout?.on('data', (chunk) => held.push(chunk));
    child.stderr?.on('data', (chunk) => held.push(chunk));
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

function slowestFiles(count) {
  const file = path.join(root, '.tmp/vitest-files.json');
  if (!existsSync(file)) return [];
  const files = JSON.parse(readFileSync(file, 'utf8'));
  return files.sort((a, b) => b.ms - a.ms).slice(0, count);
}

function saveCommittedDurations() {
  const file = path.join(root, '.tmp/vitest-files.json');
  const files = JSON.parse(readFileSync(file, 'utf8'));
  const durations = Object.fromEntries(
    files
      .filter((entry) => entry.state === 'passed')
      .sort((a, b) => b.ms - a.ms)
      .map((entry) => [`${entry.project} ${entry.file}`, Math.round(entry.ms / 100) * 100]),
  );
  writeFileSync(
    path.join(root, 'scripts/test-durations.json'),
    `${JSON.stringify(durations, null, 1)}\n`,
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
  const slowest = slowestFiles(20);
  if (slowest.length > 0) {
    console.log('\nSlowest test files');
    for (const { project, file, ms, state } of slowest) {
      console.log(
        `${seconds(ms).padStart(6)}  ${project.padEnd(16)} ${file}${state === 'passed' ? '' : `  (${state})`}`,
      );
    }
  }
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
const tested = built ? await phase('vitest', 'npx', ['vitest', 'run', ...vitestArgs]) : false;
const checked = await checks;
if (tested && saveDurations) saveCommittedDurations();
report(startedAt);
process.exitCode = engines && checked && built && tested ? 0 : 1;
