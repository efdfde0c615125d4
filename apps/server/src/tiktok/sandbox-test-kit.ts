// Test-only helpers: run the real sandbox on an ephemeral port and drive its consent page the way
// a browser would (GET the page, submit the form, read the redirect), over real HTTP.
import { createHash, randomBytes } from 'node:crypto';
import {
  startSandboxServer,
  type SandboxServer,
  type StartSandboxServerOptions,
} from '@cadence/tiktok-sandbox';
import { createTikTokClient, type TikTokClient } from './tiktok-client.ts';
import type { TikTokScope } from './tiktok-oauth.ts';

export const CLIENT_KEY = 'contract_client_key';
export const CLIENT_SECRET = 'contract_client_secret';
export const REDIRECT_URI = 'http://127.0.0.1:3999/api/tiktok/callback?from=contract';

export interface SandboxKit {
  sandbox: SandboxServer;
  client: TikTokClient;
  /** A client whose requests can be given a different timeout or secret. */
  clientWith(overrides: { clientSecret?: string; timeoutMs?: number }): TikTokClient;
}

/** The sandbox mounted under /sandbox/tiktok, as the app mounts it, plus a client pointed at it. */
export async function startSandboxKit(
  options: Omit<StartSandboxServerOptions, 'prefix' | 'clients'> = {},
): Promise<SandboxKit> {
  const sandbox = await startSandboxServer({
    prefix: '/sandbox/tiktok',
    enableControl: true,
    ...options,
    clients: [
      {
        clientKey: CLIENT_KEY,
        clientSecret: CLIENT_SECRET,
        redirectUris: [REDIRECT_URI],
        appName: 'Cadence',
      },
    ],
  });
  const clientWith = (overrides: { clientSecret?: string; timeoutMs?: number }) =>
    createTikTokClient({
      clientKey: CLIENT_KEY,
      clientSecret: overrides.clientSecret ?? CLIENT_SECRET,
      authBase: sandbox.baseUrl,
      apiBase: sandbox.baseUrl,
      timeoutMs: overrides.timeoutMs ?? 10_000,
    });
  return { sandbox, client: clientWith({}), clientWith };
}

function hiddenInputs(html: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    const [, name, value] = match;
    if (name !== undefined && value !== undefined) fields.set(name, decodeEntities(value));
  }
  return fields;
}

function decodeEntities(value: string): string {
  return value
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');
}

export interface ConsentOutcome {
  /** The Location the sandbox redirected to. */
  location: URL;
  code: string | null;
  scopes: string[];
  state: string | null;
}

/**
 * Opens the authorize URL, then submits the consent form as a person would: the optional scopes
 * in `decline` unticked, `username` typed in, Authorize (or Deny) pressed.
 */
export async function consent(
  authorizeUrl: string,
  choice: { username: string; decline?: readonly TikTokScope[]; deny?: boolean },
): Promise<ConsentOutcome> {
  const page = await fetch(authorizeUrl);
  const html = await page.text();
  if (page.status !== 200) throw new Error(`consent page answered ${page.status}: ${html}`);
  const action = /<form method="post" action="([^"]+)">/.exec(html)?.[1];
  if (action === undefined) throw new Error('consent page has no form');
  const form = new URLSearchParams([...hiddenInputs(html)]);
  // Ticked, enabled checkboxes are what a browser submits.
  for (const match of html.matchAll(/name="granted_scope" value="([^"]+)" checked(?! disabled)/g)) {
    const scope = match[1];
    if (scope !== undefined && !(choice.decline ?? []).some((declined) => declined === scope)) {
      form.append('granted_scope', scope);
    }
  }
  form.set('username', choice.username);
  form.set('action', choice.deny === true ? 'deny' : 'authorize');
  const submitted = await fetch(new URL(decodeEntities(action), authorizeUrl), {
    method: 'POST',
    // What Chromium sends from the consent page (its referrer policy is no-referrer): Cadence's
    // same-origin check must leave the sandbox, which stands in for TikTok, to OAuth's own checks.
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin: 'null',
      'sec-fetch-site': 'same-origin',
    },
    body: form.toString(),
    redirect: 'manual',
  });
  await submitted.text();
  const location = submitted.headers.get('location');
  if (submitted.status !== 302 || location === null) {
    throw new Error(`consent form answered ${submitted.status} without a redirect`);
  }
  const url = new URL(location);
  return {
    location: url,
    code: url.searchParams.get('code'),
    scopes: (url.searchParams.get('scopes') ?? '').split(',').filter((scope) => scope !== ''),
    state: url.searchParams.get('state'),
  };
}

/** Full Login Kit flow with PKCE; returns the tokens and what was used to get them. */
export async function connectAccount(
  kit: Pick<SandboxKit, 'client'>,
  choice: { username: string; scopes?: readonly TikTokScope[]; decline?: readonly TikTokScope[] },
) {
  const pkce = kit.client.createPkcePair();
  const state = randomBytes(16).toString('hex');
  const outcome = await consent(
    kit.client.buildAuthorizeUrl({
      redirectUri: REDIRECT_URI,
      state,
      codeChallenge: pkce.codeChallenge,
      scopes: choice.scopes ?? [
        'user.info.basic',
        'user.info.profile',
        'video.list',
        'video.upload',
        'video.publish',
      ],
    }),
    choice,
  );
  if (outcome.code === null) throw new Error(`no code in ${outcome.location.href}`);
  const tokens = await kit.client.exchangeCode({
    code: outcome.code,
    redirectUri: REDIRECT_URI,
    codeVerifier: pkce.codeVerifier,
  });
  return { tokens, outcome, pkce, state };
}

/** A fake MP4: a real `ftyp` box (so the sandbox's format check passes) then random bytes. */
export function fakeMp4(size: number): Buffer {
  const bytes = randomBytes(size);
  Buffer.from('00000018667479706d703432000000006d70343169736f6d', 'hex').copy(bytes, 0);
  return bytes;
}

export function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Polls `read` until `done` holds, failing after `timeoutMs`. */
export async function pollUntil<TValue>(
  read: () => Promise<TValue>,
  done: (value: TValue) => boolean,
  { timeoutMs = 10_000, intervalMs = 100 } = {},
): Promise<TValue> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
