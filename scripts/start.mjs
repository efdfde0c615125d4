// `npm start`: builds the web app and the server when missing (and the server again when its
// sources changed since), then runs the compiled server, which serves the web app, with the
// embedded worker. Everything else is configuration (see README).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ensureServerBuild, repoRoot, runCompiled } from './server-build.mjs';

if (!existsSync(path.join(repoRoot, 'apps/web/dist/index.html'))) {
  console.log('Building the web app (first start)…');
  const build = spawnSync('npm', ['run', 'build', '-w', '@cadence/web'], {
    cwd: repoRoot,
    stdio: 'inherit',
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
await ensureServerBuild();
runCompiled('main', [], { NODE_ENV: 'production', ...process.env });
