import { deleteAccountSchema } from '@cadence/shared/schemas/user';
import { isAPIError } from 'better-auth/api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Auth } from '../../auth/auth.ts';
import { signedIn, userOf } from '../../auth/route-guards.ts';
import { AppError } from '../../lib/app-error.ts';
import { noBody } from '../../openapi/plugin.ts';
import type { DataRightsService } from './service.ts';

/** POST /api/me/delete: the account and everything of it, after the password again. */
export async function dataRightsRoutes(
  fastify: FastifyInstance,
  { dataRights, auth }: { dataRights: DataRightsService; auth: Auth },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const preValidation = signedIn(fastify);

  app.post(
    '/api/me/delete',
    {
      preValidation,
      schema: {
        tags: ['me'],
        description:
          'Deletes my account: TikTok grants revoked, pending posts cancelled, every file and row removed.',
        body: deleteAccountSchema,
        response: { 204: noBody('Deleted; the session is over') },
      },
    },
    async (request, reply) => {
      const headers = new Headers();
      if (request.headers.cookie) headers.set('cookie', request.headers.cookie);
      try {
        await auth.api.verifyPassword({ body: { password: request.body.password }, headers });
      } catch (error) {
        if (isAPIError(error) && error.statusCode < 500) {
          throw new AppError('validation_failed', 'Wrong password', {
            password: 'auth.errors.wrongCurrentPassword',
          });
        }
        throw error;
      }
      await dataRights.deleteAccount(userOf(request).id);
      return reply.status(204).send();
    },
  );
}
