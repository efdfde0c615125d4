import { KNOWN_SCOPES, type SandboxClient, type SandboxScope } from './options.ts';
import { fail, ok, type Result } from './result.ts';

export interface AuthorizeRequest {
  client: SandboxClient;
  redirectUri: string;
  /** Requested scopes, deduplicated, in the order asked. */
  scopes: SandboxScope[];
  state: string;
  codeChallenge: string | null;
}

/** Scopes the person cannot untick on the consent page. */
export const REQUIRED_SCOPES: readonly SandboxScope[] = ['user.info.basic'];

const CODE_CHALLENGE = /^[A-Za-z0-9._~-]{43,128}$/;

function isKnownScope(scope: string): scope is SandboxScope {
  return KNOWN_SCOPES.some((known) => known === scope);
}

/** Splits TikTok's comma-separated scope list; null when empty or when a scope is unknown. */
export function parseScopeList(raw: string): SandboxScope[] | null {
  const scopes: SandboxScope[] = [];
  for (const part of raw.split(',')) {
    const scope = part.trim();
    if (!isKnownScope(scope)) return null;
    if (!scopes.includes(scope)) scopes.push(scope);
  }
  return scopes.length > 0 ? scopes : null;
}

function single(params: Record<string, unknown>, name: string): string | undefined {
  const value = params[name];
  return typeof value === 'string' ? value : undefined;
}

/**
 * Validates `GET /v2/auth/authorize/` parameters (also re-checked when the form comes back, since
 * its hidden fields can be edited). Errors are messages for an HTML page: the sandbox never
 * redirects anywhere until client_key and redirect_uri are known good.
 */
export function validateAuthorizeRequest(
  clients: readonly SandboxClient[],
  params: Record<string, unknown>,
): Result<AuthorizeRequest, string> {
  const clientKey = single(params, 'client_key');
  if (clientKey === undefined || clientKey === '') return fail('client_key is missing.');
  const client = clients.find((candidate) => candidate.clientKey === clientKey);
  if (client === undefined) return fail('client_key is not a registered app.');

  const redirectUri = single(params, 'redirect_uri');
  if (redirectUri === undefined || redirectUri === '') return fail('redirect_uri is missing.');
  if (!client.redirectUris.includes(redirectUri)) {
    return fail('redirect_uri does not match any redirect URI registered for this app.');
  }

  if (single(params, 'response_type') !== 'code') return fail('response_type must be "code".');

  const rawScope = single(params, 'scope');
  const scopes = rawScope === undefined ? null : parseScopeList(rawScope);
  if (scopes === null) {
    return fail(`scope must be a comma-separated list of: ${KNOWN_SCOPES.join(', ')}.`);
  }

  const state = single(params, 'state');
  if (state === undefined || state === '') return fail('state is missing.');

  const codeChallenge = single(params, 'code_challenge');
  const method = single(params, 'code_challenge_method');
  if (codeChallenge === undefined || codeChallenge === '') {
    if (method !== undefined && method !== '') {
      return fail('code_challenge_method was sent without code_challenge.');
    }
    return ok({ client, redirectUri, scopes, state, codeChallenge: null });
  }
  if (!CODE_CHALLENGE.test(codeChallenge)) return fail('code_challenge is malformed.');
  if (method !== 'S256') return fail('code_challenge_method must be "S256".');
  return ok({ client, redirectUri, scopes, state, codeChallenge });
}
