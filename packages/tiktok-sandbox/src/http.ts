import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { InjectedFailure } from './control.ts';
import type { AuthenticatedToken } from './oauth-store.ts';
import type { RateLimitedEndpoint, SandboxEndpoint, SandboxScope } from './options.ts';
import type { SandboxState } from './sandbox-state.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Which sandbox endpoint a route is, for fault injection and error shapes. */
    tiktokSandboxEndpoint?: SandboxEndpoint;
  }
}

/** How an endpoint reports errors: the authorize page in HTML, OAuth flat JSON, or the v2 envelope. */
export type ErrorShape = 'html' | 'oauth' | 'envelope';

export function errorShapeOf(endpoint: SandboxEndpoint): ErrorShape {
  if (endpoint === 'authorize') return 'html';
  if (endpoint === 'token' || endpoint === 'revoke') return 'oauth';
  return 'envelope';
}

export function sendEnvelope(
  reply: FastifyReply,
  state: SandboxState,
  status: number,
  data: object,
): FastifyReply {
  return reply
    .code(status)
    .type('application/json; charset=utf-8')
    .send({ data, error: { code: 'ok', message: '', log_id: state.newLogId() } });
}

export function sendEnvelopeError(
  reply: FastifyReply,
  state: SandboxState,
  status: number,
  code: string,
  message: string,
): FastifyReply {
  return reply
    .code(status)
    .type('application/json; charset=utf-8')
    .send({ data: {}, error: { code, message, log_id: state.newLogId() } });
}

export function sendOAuthError(
  reply: FastifyReply,
  state: SandboxState,
  status: number,
  error: string,
  description: string,
): FastifyReply {
  return reply
    .code(status)
    .type('application/json; charset=utf-8')
    .send({ error, error_description: description, log_id: state.newLogId() });
}

export function sendHtml(
  reply: FastifyReply,
  status: number,
  html: string,
  contentSecurityPolicy: string,
): FastifyReply {
  return reply
    .code(status)
    .header('content-security-policy', contentSecurityPolicy)
    .header('cache-control', 'no-store')
    .header('x-frame-options', 'DENY')
    .type('text/html; charset=utf-8')
    .send(html);
}

const HTTP_ERROR_CODES: Record<number, { oauth: string; envelope: string }> = {
  429: { oauth: 'temporarily_unavailable', envelope: 'rate_limit_exceeded' },
  503: { oauth: 'temporarily_unavailable', envelope: 'internal_error' },
};

/** Answers with an injected failure in the endpoint's own error shape. */
export function sendInjectedFailure(
  reply: FastifyReply,
  state: SandboxState,
  endpoint: SandboxEndpoint,
  failure: InjectedFailure,
): FastifyReply {
  const shape = errorShapeOf(endpoint);
  const status = failure.type === 'http_error' ? failure.status : (failure.status ?? 200);
  const codes = HTTP_ERROR_CODES[status] ?? { oauth: 'server_error', envelope: 'internal_error' };
  const code =
    failure.type === 'error_body' ? failure.code : shape === 'oauth' ? codes.oauth : codes.envelope;
  const message =
    (failure.type === 'error_body' ? failure.message : undefined) ?? 'Injected by the sandbox.';
  if (shape === 'oauth') return sendOAuthError(reply, state, status, code, message);
  // The authorize page is a browser page: an injected failure there is a plain error page.
  if (shape === 'html') return reply.code(status).type('text/plain').send(`${code}: ${message}`);
  return sendEnvelopeError(reply, state, status, code, message);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A parsed query or form body as a record of parameters; anything else as none. */
export function asParams(value: unknown): Record<string, unknown> {
  return isRecord(value) ? value : {};
}

/** `Authorization: Bearer <token>` → token, else null. */
export function bearerToken(request: FastifyRequest): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
  return match?.[1] ?? null;
}

/**
 * The gate every v2 API call passes: a live access token, the endpoint's rate limit for that
 * token, then the scope. Sends the error and returns null when refused.
 */
export function authorizeApiCall(
  request: FastifyRequest,
  reply: FastifyReply,
  state: SandboxState,
  endpoint: RateLimitedEndpoint,
  anyOfScopes: readonly SandboxScope[],
): (AuthenticatedToken & { accessToken: string }) | null {
  const token = bearerToken(request);
  const auth = token === null ? null : state.oauth.authenticateAccessToken(token);
  if (token === null || auth === null) {
    sendEnvelopeError(
      reply,
      state,
      401,
      'access_token_invalid',
      'The access token is invalid or not found in the request.',
    );
    return null;
  }
  if (!state.rateLimiter.tryHit(`${endpoint}\u0000${token}`, state.options.rateLimits[endpoint])) {
    sendEnvelopeError(
      reply,
      state,
      429,
      'rate_limit_exceeded',
      'API rate limit was exceeded, only retry after some time.',
    );
    return null;
  }
  if (!anyOfScopes.some((scope) => auth.scopes.includes(scope))) {
    sendEnvelopeError(
      reply,
      state,
      401,
      'scope_not_authorized',
      `The user did not authorize the scope required for this endpoint (${anyOfScopes.join(' or ')}).`,
    );
    return null;
  }
  return { ...auth, accessToken: token };
}

/**
 * Parses an API body with `schema`; on failure answers TikTok's 400 `invalid_params` envelope and
 * returns null, so a route reads `const body = parseBodyOrReject(…); if (body === null) return reply;`.
 */
export function parseBodyOrReject<TSchema extends z.ZodType>(
  reply: FastifyReply,
  state: SandboxState,
  schema: TSchema,
  value: unknown,
): z.output<TSchema> | null {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  void sendEnvelopeError(reply, state, 400, 'invalid_params', describeZodError(parsed.error));
  return null;
}

/** First zod issue as `path: message`, for TikTok-style one-line error messages. */
export function describeZodError(error: z.ZodError): string {
  const issue = error.issues[0];
  if (issue === undefined) return 'Invalid request.';
  const path = issue.path.map(String).join('.');
  return path === '' ? issue.message : `${path}: ${issue.message}`;
}
