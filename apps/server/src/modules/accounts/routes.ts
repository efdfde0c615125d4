import { uuidParams } from '@cadence/shared/schemas/params';
import {
  accountListSchema,
  accountSchema,
  accountSettingsSchema,
  connectResponseSchema,
  createAccountSchema,
  creatorInfoSchema,
  keptConnectionSchema,
  pendingConnectionSchema,
} from '@cadence/shared/schemas/account';
import type { FastifyInstance, preValidationAsyncHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { signedIn, userOf } from '../../auth/route-guards.ts';
import { getSessionUser } from '../../auth/session.ts';
import type { Auth } from '../../auth/auth.ts';
import { noBody } from '../../openapi/plugin.ts';
import { ConnectError } from './connection-store.ts';
import type { AccountService } from './service.ts';

// TikTok's redirect is answered whatever its query holds: an unreadable one is no query at all.
const callbackQuery = z
  .object({
    code: z.string().max(2048).optional(),
    state: z.string().max(512).optional(),
    error: z.string().max(256).optional(),
    error_description: z.string().max(2048).optional(),
    scopes: z.string().max(1024).optional(),
  })
  .catch({});
const removeReply = z.object({ cancelledPosts: z.number().int() });

const tags = ['accounts'];

type AccountsApp = ReturnType<typeof typed>;
interface RouteOptions {
  app: AccountsApp;
  service: AccountService;
  preValidation: preValidationAsyncHookHandler;
}

function typed(fastify: FastifyInstance) {
  return fastify.withTypeProvider<ZodTypeProvider>();
}

/** /api/accounts…: the user's account cards, their settings, connecting and creator info. */
function registerAccountCardRoutes({ app, service, preValidation }: RouteOptions) {
  app.get(
    '/api/accounts',
    { preValidation, schema: { tags, response: { 200: accountListSchema } } },
    async (request) => ({ accounts: await service.list(userOf(request).id) }),
  );

  app.post(
    '/api/accounts',
    {
      preValidation,
      schema: { tags, body: createAccountSchema, response: { 201: accountSchema } },
    },
    async (request, reply) =>
      reply.status(201).send(await service.add(userOf(request).id, request.body.username)),
  );

  app.delete(
    '/api/accounts/:id',
    { preValidation, schema: { tags, params: uuidParams, response: { 200: removeReply } } },
    async (request) => service.remove(userOf(request).id, request.params.id),
  );

  app.patch(
    '/api/accounts/:id/settings',
    {
      preValidation,
      schema: {
        tags,
        params: uuidParams,
        body: accountSettingsSchema,
        response: { 200: accountSchema },
      },
    },
    async (request) => service.updateSettings(userOf(request).id, request.params.id, request.body),
  );

  app.post(
    '/api/accounts/:id/connect',
    {
      preValidation,
      schema: { tags, params: uuidParams, response: { 200: connectResponseSchema } },
    },
    async (request) => ({
      authorizeUrl: await service.startConnect(userOf(request).id, request.params.id),
    }),
  );

  app.get(
    '/api/accounts/:id/creator-info',
    { preValidation, schema: { tags, params: uuidParams, response: { 200: creatorInfoSchema } } },
    async (request) => service.creatorInfo(userOf(request).id, request.params.id),
  );
}

/** 'You authorised @x, but this card is @y': the choice, held server-side (single use, short-lived). */
function registerPendingConnectionRoutes({ app, service, preValidation }: RouteOptions) {
  app.get(
    '/api/pending-connections/:id',
    {
      preValidation,
      schema: { tags, params: uuidParams, response: { 200: pendingConnectionSchema } },
    },
    async (request) => service.pendingConnection(userOf(request).id, request.params.id),
  );

  app.post(
    '/api/pending-connections/:id/keep',
    {
      preValidation,
      schema: { tags, params: uuidParams, response: { 200: keptConnectionSchema } },
    },
    async (request) => service.keepPendingConnection(userOf(request).id, request.params.id),
  );

  app.post(
    '/api/pending-connections/:id/cancel',
    {
      preValidation,
      schema: {
        tags,
        params: uuidParams,
        response: { 204: noBody('Cancelled: the grant is revoked, no card changed') },
      },
    },
    async (request, reply) => {
      await service.cancelPendingConnection(userOf(request).id, request.params.id);
      return reply.status(204).send();
    },
  );
}

/**
 * TikTok redirects the browser here (PUBLIC_URL/auth/callback). The server finishes the exchange
 * and sends the person back to the accounts page with the outcome in the query string.
 */
function registerOAuthCallbackRoute(app: AccountsApp, service: AccountService, auth: Auth) {
  app.get(
    '/auth/callback',
    {
      schema: {
        tags,
        querystring: callbackQuery,
        response: {
          302: noBody(
            'Back to /tiktok with ?connected=<id>, ?mismatch=<pending id> or ?error=<kind>',
          ),
        },
      },
    },
    async (request, reply) => {
      const query = request.query;
      const user = await getSessionUser(auth, request);
      try {
        const outcome = await service.completeConnect({
          userId: user?.id ?? null,
          state: query.state,
          code: query.code,
          error: query.error,
        });
        return reply.redirect(
          outcome.kind === 'connected'
            ? `/tiktok?connected=${encodeURIComponent(outcome.accountId)}`
            : `/tiktok?mismatch=${encodeURIComponent(outcome.pendingId)}`,
        );
      } catch (error) {
        if (error instanceof ConnectError) {
          request.log.warn({ kind: error.kind, reason: error.message }, 'TikTok connection failed');
          return reply.redirect(`/tiktok?error=${error.kind}`);
        }
        throw error;
      }
    },
  );
}

export async function accountRoutes(
  fastify: FastifyInstance,
  { service, auth }: { service: AccountService; auth: Auth },
) {
  const app = typed(fastify);
  const options: RouteOptions = { app, service, preValidation: signedIn(fastify) };
  registerAccountCardRoutes(options);
  registerPendingConnectionRoutes(options);
  registerOAuthCallbackRoute(app, service, auth);
}
