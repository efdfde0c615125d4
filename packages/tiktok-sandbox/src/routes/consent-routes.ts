import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { REQUIRED_SCOPES, validateAuthorizeRequest } from '../authorize-request.ts';
import { pageContentSecurityPolicy, renderConsentPage, renderErrorPage } from '../consent-page.ts';
import { asParams, sendHtml } from '../http.ts';
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

/** Login Kit's authorize endpoint: the consent page, and the answer the person gives on it. */
export function registerConsentRoutes(fastify: FastifyInstance, state: SandboxState): void {
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
}
