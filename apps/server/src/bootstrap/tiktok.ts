import { SandboxState } from '@cadence/tiktok-sandbox';
import type { Config } from '../config.ts';
import type { AppContext } from '../context.ts';
import { createTikTokClient } from '../tiktok/tiktok-client.ts';

/** Where TikTok sends a person back after the consent page. */
export function oauthRedirectUri(config: Config): string {
  return `${config.publicUrl}/auth/callback`;
}

/** The TikTok client, and the in-process sandbox it talks to when no TikTok app is configured. */
export function createTikTok(config: Config): Pick<AppContext, 'tiktok' | 'sandbox'> {
  const tiktok = createTikTokClient({
    clientKey: config.tiktok.clientKey,
    clientSecret: config.tiktok.clientSecret,
    authBase: config.tiktok.authBase,
    apiBase: config.tiktok.apiBase,
  });
  return { tiktok, sandbox: config.tiktok.sandbox ? createSandbox(config) : null };
}

function createSandbox(config: Config): SandboxState {
  return new SandboxState({
    clients: [
      {
        clientKey: config.tiktok.clientKey,
        clientSecret: config.tiktok.clientSecret,
        redirectUris: [oauthRedirectUri(config)],
        appName: 'Cadence',
        // TIKTOK_APP_AUDITED=false: the sandbox holds Cadence to an unaudited app's limits.
        unaudited: !config.tiktok.audited,
        // The prefix Cadence pulls from counts as verified with the sandbox, as the operator
        // verifies it with TikTok.
        verifiedUrlPrefixes:
          config.tiktok.pullFromUrlPrefix === null ? [] : [config.tiktok.pullFromUrlPrefix],
      },
    ],
    // Sandbox accounts stay connected across restarts: Cadence keeps their tokens in its database.
    persistFile: `${config.dataDir}/tiktok-sandbox.json`,
    ...(config.tiktok.sandboxPostIdDelayMs !== null && {
      postIdDelayMs: config.tiktok.sandboxPostIdDelayMs,
    }),
    ...(config.tiktok.sandboxRateLimitWindowMs !== null && {
      rateLimitWindowMs: config.tiktok.sandboxRateLimitWindowMs,
    }),
  });
}
