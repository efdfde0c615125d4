import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { REQUIRED_SCOPES, validateAuthorizeRequest } from '../authorize-request.ts';
import { pageContentSecurityPolicy, renderConsentPage, renderErrorPage } from '../consent-page.ts';
import { sendHtml, sendOAuthError } from '../http.ts';
import { randomUsername } from '../ids.ts';
import type { SandboxState } from '../sandbox-state.ts';

const USERNAME = /^[a-z0-9._]{2,24}$/;

const consentFormSchema = z.object({
  action: z.enum(['authorize', 'deny']),
  username: z.string().default(''),
  granted_scope: z
    .union([z.string(), z.array(z.string())])
    .default([])
    .transform((value) => (typeof value === 'string' ? [value] : value)),
});

const formField = z.string().min(1);
const codeGrantSchema = z.object({
  grant_type: z.literal('authorization_code'),
  client_key: formField,
  client_secret: formField,
  code: formField,
  redirect_uri: formField,
  code_verifier: z.string().optional(),
});
const refreshGrantSchema = z.object({
  grant_type: z.literal('refresh_token'),
  client_key: formField,
  client_secret: formField,
  refresh_token: formField,
});
const revokeSchema = z.object({
  client_key: formField,
  client_secret: formField,
  token: formField,
});

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function asParams(value: unknown): Record<string, unknown> {
  return isRecord(value) ? value : {};
}

/**
 * `username_hint`, a sandbox-only parameter (TikTok ignores parameters it does not know): the
 * username of the card being connected, to pre-fill the consent page. Unusable hints are ignored.
 */
function usernameHint(query: unknown): string | null {
  const hint = asParams(query)['username_hint'];
  if (typeof hint !== 'string') return null;
  const username = normaliseSandboxUsername(hint);
  return USERNAME.test(username) ? username : null;
}

/** What the consent page does with a typed username: trimmed, no leading '@', lower case. */
function normaliseSandboxUsername(typed: string): string {
  return typed.trim().replace(/^@+/, '').toLowerCase();
}

function redirectWith(redirectUri: string, params: Record<string, string>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return url.toString();
}

/** Login Kit: the consent page, the token endpoint (code + refresh grants) and revoke. */
export function registerOAuthRoutes(fastify: FastifyInstance, state: SandboxState): void {
  const authorizePath = `${fastify.prefix}/v2/auth/authorize/`;
  const sendErrorPage = (reply: FastifyReply, message: string) =>
    sendHtml(reply, 400, renderErrorPage(message), pageContentSecurityPolicy(null));

  fastify.get(
    '/v2/auth/authorize/',
    { config: { tiktokSandboxEndpoint: 'authorize' } },
    async (request, reply) => {
      const checked = validateAuthorizeRequest(state.options.clients, asParams(request.query));
      if (!checked.ok) {
        return sendErrorPage(reply, checked.error);
      }
      const html = renderConsentPage({
        request: checked.value,
        formAction: authorizePath,
        username: usernameHint(request.query) ?? randomUsername(),
      });
      return sendHtml(reply, 200, html, pageContentSecurityPolicy(checked.value.redirectUri));
    },
  );

  fastify.post(
    '/v2/auth/authorize/',
    { config: { tiktokSandboxEndpoint: 'authorize' } },
    async (request, reply) => {
      const params = asParams(request.body);
      // The hidden fields come back from the browser: check them as if they were a new request.
      const checked = validateAuthorizeRequest(state.options.clients, params);
      if (!checked.ok) {
        return sendErrorPage(reply, checked.error);
      }
      const authorizeRequest = checked.value;
      const form = consentFormSchema.safeParse(params);
      if (!form.success) {
        return sendErrorPage(reply, 'The consent form was incomplete.');
      }
      if (form.data.action === 'deny') {
        return reply.redirect(
          redirectWith(authorizeRequest.redirectUri, {
            error: 'access_denied',
            error_description: 'The user denied the authorization request.',
            state: authorizeRequest.state,
          }),
          302,
        );
      }
      const username = normaliseSandboxUsername(form.data.username);
      if (!USERNAME.test(username)) {
        const html = renderConsentPage({
          request: authorizeRequest,
          formAction: authorizePath,
          username: form.data.username,
          error: 'A TikTok username has 2 to 24 letters, digits, dots or underscores.',
        });
        return sendHtml(reply, 400, html, pageContentSecurityPolicy(authorizeRequest.redirectUri));
      }
      const granted = authorizeRequest.scopes.filter(
        (scope) => REQUIRED_SCOPES.includes(scope) || form.data.granted_scope.includes(scope),
      );
      const code = state.oauth.issueCode({
        clientKey: authorizeRequest.client.clientKey,
        redirectUri: authorizeRequest.redirectUri,
        username,
        scopes: granted,
        codeChallenge: authorizeRequest.codeChallenge,
      });
      return reply.redirect(
        redirectWith(authorizeRequest.redirectUri, {
          code,
          scopes: granted.join(','),
          state: authorizeRequest.state,
        }),
        302,
      );
    },
  );

  fastify.post(
    '/v2/oauth/token/',
    { config: { tiktokSandboxEndpoint: 'token' } },
    async (request, reply) => {
      const body = asParams(request.body);
      const grantType = body['grant_type'];
      const result =
        grantType === 'authorization_code'
          ? codeGrantSchema.safeParse(body)
          : grantType === 'refresh_token'
            ? refreshGrantSchema.safeParse(body)
            : null;
      if (result === null) {
        return sendOAuthError(
          reply,
          state,
          400,
          'unsupported_grant_type',
          'grant_type must be authorization_code or refresh_token.',
        );
      }
      if (!result.success) {
        const missing = result.error.issues.map((issue) => issue.path.join('.')).join(', ');
        return sendOAuthError(
          reply,
          state,
          400,
          'invalid_request',
          `Missing or invalid: ${missing}.`,
        );
      }
      const grant = result.data;
      const issued =
        grant.grant_type === 'authorization_code'
          ? state.oauth.exchangeCode({
              clientKey: grant.client_key,
              clientSecret: grant.client_secret,
              code: grant.code,
              redirectUri: grant.redirect_uri,
              codeVerifier: grant.code_verifier,
            })
          : state.oauth.refresh({
              clientKey: grant.client_key,
              clientSecret: grant.client_secret,
              refreshToken: grant.refresh_token,
            });
      if (!issued.ok) {
        const status = issued.error.error === 'invalid_client' ? 401 : 400;
        return sendOAuthError(reply, state, status, issued.error.error, issued.error.description);
      }
      return reply.header('cache-control', 'no-store').send(issued.value);
    },
  );

  fastify.post(
    '/v2/oauth/revoke/',
    { config: { tiktokSandboxEndpoint: 'revoke' } },
    async (request, reply) => {
      const parsed = revokeSchema.safeParse(asParams(request.body));
      if (!parsed.success) {
        return sendOAuthError(
          reply,
          state,
          400,
          'invalid_request',
          'client_key, client_secret and token are required.',
        );
      }
      const revoked = state.oauth.revoke({
        clientKey: parsed.data.client_key,
        clientSecret: parsed.data.client_secret,
        token: parsed.data.token,
      });
      if (!revoked.ok) {
        return sendOAuthError(reply, state, 401, revoked.error.error, revoked.error.description);
      }
      return reply.send({});
    },
  );
}
