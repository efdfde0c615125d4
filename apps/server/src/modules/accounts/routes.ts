import {
  accountListSchema,
  accountSchema,
  accountSettingsSchema,
  connectResponseSchema,
  createAccountSchema,
  creatorInfoSchema,
} from '@cadence/shared/schemas/account';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { getSessionUser } from '../../auth/session.ts';
import type { Auth } from '../../auth/auth.ts';
import { ConnectError, type AccountService } from './service.ts';

const idParams = z.object({ id: z.uuid() });
const callbackQuery = z.object({
  code: z.string().max(2048).optional(),
  state: z.string().max(512).optional(),
  error: z.string().max(256).optional(),
  error_description: z.string().max(2048).optional(),
  scopes: z.string().max(1024).optional(),
});

export async function accountRoutes(
  app: FastifyInstance,
  { service, auth }: { service: AccountService; auth: Auth },
) {
  app.get('/api/accounts', async (request) => {
    const user = await app.requireUser(request);
    return accountListSchema.parse({ accounts: await service.list(user.id) });
  });

  app.post('/api/accounts', async (request, reply) => {
    const user = await app.requireUser(request);
    const body = createAccountSchema.parse(request.body);
    return reply.status(201).send(accountSchema.parse(await service.add(user.id, body.username)));
  });

  app.delete('/api/accounts/:id', async (request) => {
    const user = await app.requireUser(request);
    const { id } = idParams.parse(request.params);
    return service.remove(user.id, id);
  });

  app.patch('/api/accounts/:id/settings', async (request) => {
    const user = await app.requireUser(request);
    const { id } = idParams.parse(request.params);
    return accountSchema.parse(
      await service.updateSettings(user.id, id, accountSettingsSchema.parse(request.body)),
    );
  });

  app.post('/api/accounts/:id/connect', async (request) => {
    const user = await app.requireUser(request);
    const { id } = idParams.parse(request.params);
    return connectResponseSchema.parse({ authorizeUrl: await service.startConnect(user.id, id) });
  });

  app.get('/api/accounts/:id/creator-info', async (request) => {
    const user = await app.requireUser(request);
    const { id } = idParams.parse(request.params);
    return creatorInfoSchema.parse(await service.creatorInfo(user.id, id));
  });

  // TikTok redirects the browser here (PUBLIC_URL/auth/callback). The server finishes the exchange
  // and sends the person back to the accounts page with the outcome in the query string.
  app.get('/auth/callback', async (request, reply) => {
    const parsed = callbackQuery.safeParse(request.query);
    const query = parsed.success ? parsed.data : {};
    const user = await getSessionUser(auth, request);
    try {
      const accountId = await service.completeConnect({
        userId: user?.id ?? null,
        state: query.state,
        code: query.code,
        error: query.error,
      });
      return reply.redirect(`/tiktok?connected=${encodeURIComponent(accountId)}`);
    } catch (error) {
      if (error instanceof ConnectError) {
        request.log.warn({ kind: error.kind, reason: error.message }, 'TikTok connection failed');
        return reply.redirect(`/tiktok?error=${error.kind}`);
      }
      throw error;
    }
  });
}
