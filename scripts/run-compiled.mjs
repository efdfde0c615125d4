// `npm run worker` / `npm run admin -- …`: runs the compiled entry point, building the server first
// when it is missing or older than its sources.
import { ensureServerBuild, runCompiled, serverEntries } from './server-build.mjs';

const [entry, ...args] = process.argv.slice(2);
if (entry === undefined || !serverEntries.includes(entry)) {
  console.error(`usage: node scripts/run-compiled.mjs <${serverEntries.join('|')}> [args…]`);
  process.exit(2);
}
await ensureServerBuild();
runCompiled(entry, args);
