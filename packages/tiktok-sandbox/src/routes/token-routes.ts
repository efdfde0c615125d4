import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { asParams, sendOAuthError } from '../http.ts';
import type { SandboxState } from '../sandbox-state.ts';

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

/** Login Kit's token endpoint (code and refresh grants) and token revocation. */
export function registerTokenRoutes(fastify: FastifyInstance, state: SandboxState): void {
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
