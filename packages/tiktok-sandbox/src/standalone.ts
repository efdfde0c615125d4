#!/usr/bin/env -S npx tsx
/**
 * Runs the TikTok sandbox on its own port:
 *   tsx packages/tiktok-sandbox/src/standalone.ts --port 4010 \
 *     --redirect-uri http://localhost:3000/api/tiktok/callback --control \
 *     [--persist-file .data/tiktok-sandbox.json]
 */
import { parseArgs } from 'node:util';
import { DEFAULT_SANDBOX_CLIENT } from './options.ts';
import { startSandboxServer } from './server.ts';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '4010' },
    host: { type: 'string', default: '127.0.0.1' },
    prefix: { type: 'string', default: '' },
    'client-key': { type: 'string', default: DEFAULT_SANDBOX_CLIENT.clientKey },
    'client-secret': { type: 'string', default: DEFAULT_SANDBOX_CLIENT.clientSecret },
    'redirect-uri': { type: 'string', multiple: true },
    'processing-ms': { type: 'string', default: '1500' },
    control: { type: 'boolean', default: false },
    'persist-file': { type: 'string' },
    quiet: { type: 'boolean', default: false },
  },
});

const port = Number(values.port);
const processingMs = Number(values['processing-ms']);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  console.error(`--port must be a port number, got ${values.port}`);
  process.exit(2);
}
if (!Number.isFinite(processingMs) || processingMs < 0) {
  console.error(`--processing-ms must be a non-negative number, got ${values['processing-ms']}`);
  process.exit(2);
}

const server = await startSandboxServer({
  port,
  host: values.host,
  prefix: values.prefix,
  logger: !values.quiet,
  processingMs,
  enableControl: values.control,
  ...(values['persist-file'] !== undefined && { persistFile: values['persist-file'] }),
  clients: [
    {
      clientKey: values['client-key'],
      clientSecret: values['client-secret'],
      redirectUris: values['redirect-uri'] ?? DEFAULT_SANDBOX_CLIENT.redirectUris,
      appName: DEFAULT_SANDBOX_CLIENT.appName,
    },
  ],
});

console.log(`TikTok sandbox listening: TIKTOK_AUTH_BASE = TIKTOK_API_BASE = ${server.baseUrl}`);
// The ledger (every account and post) and fault control are test tooling: --control only.
if (values.control) console.log(`Ledger: ${server.baseUrl}/_ledger`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void server.close().then(() => process.exit(0));
  });
}
