// `npm run build:server` (part of `npm run build`): bundles the server into apps/server/dist/.
import { buildServer } from './server-build.mjs';

const started = performance.now();
await buildServer();
console.log(`Built apps/server/dist in ${Math.round(performance.now() - started)} ms`);
