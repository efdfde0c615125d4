// Fails when an installed package declares a Node range that excludes the oldest Node the project
// promises (package.json `engines.node`, README): `npm ci` would warn EBADENGINE there, and the
// package may use an API that Node lacks. Reads package-lock.json, so it judges exactly what
// `npm ci` installs. Optional packages are only listed: npm skips those whose engines do not match.
// Also fails when an installed package has an install script that package.json's `allowScripts`
// neither allows nor denies: npm 11 skips such scripts and warns at every `npm ci`, so each one is
// decided once, here, on purpose (README, "Dependencies' install scripts").
// Run by `npm run check`.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';

const root = path.resolve(import.meta.dirname, '..');
const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8'));

const promised = manifest.engines?.node;
const floor = promised && semver.minVersion(promised);
if (!floor) throw new Error('package.json names no engines.node range');

const excluded = [];
const skipped = [];
for (const [location, entry] of Object.entries(lock.packages ?? {})) {
  const range = entry.engines?.node;
  // A range npm cannot read is not enforced by npm either.
  if (location === '' || typeof range !== 'string' || !semver.validRange(range)) continue;
  if (semver.satisfies(floor, range)) continue;
  const name = `${location.replace(/^.*node_modules\//, '')}@${entry.version} (${location})`;
  (entry.optional ? skipped : excluded).push(`${name} needs node ${range}`);
}

for (const line of skipped) console.log(`optional, skipped by npm on Node ${floor}: ${line}`);
if (excluded.length > 0) {
  console.error(
    `These packages exclude Node ${floor}, the oldest the project promises (engines.node ${promised}):\n  ${excluded.join('\n  ')}\n` +
      'Pin a version that supports it (package.json "overrides"), or raise the floor in package.json and README.md.',
  );
  process.exit(1);
}
console.log(`Every installed package accepts Node ${floor} (engines.node ${promised}).`);

const decided = manifest.allowScripts ?? {};
const undecided = Object.entries(lock.packages ?? {})
  .filter(([location, entry]) => location !== '' && entry.hasInstallScript)
  .map(([location, entry]) => ({ name: location.replace(/^.*node_modules\//, ''), entry }))
  .filter(({ name, entry }) => !(name in decided) && !(`${name}@${entry.version}` in decided));
if (undecided.length > 0) {
  console.error(
    `These packages have install scripts that package.json's "allowScripts" does not decide:\n  ${undecided
      .map(({ name, entry }) => `${name}@${entry.version}`)
      .join('\n  ')}\n` +
      'Read what each script does, then `npm install-scripts approve <pkg>` or `npm install-scripts deny <pkg>`.',
  );
  process.exit(1);
}
console.log('Every install script of an installed package is allowed or denied in package.json.');
