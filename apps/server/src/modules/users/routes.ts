import { meSchema, updateMeSchema, type Me } from '@cadence/shared/schemas/user';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { signedIn, userOf } from '../../auth/route-guards.ts';
import { AppError } from '../../lib/app-error.ts';
import type { UserRepository } from './repository.ts';

export async function userRoutes(fastify: FastifyInstance, { users }: { users: UserRepository }) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const preValidation = signedIn(fastify);
  const tags = ['me'];

  async function loadMe(id: string): Promise<Me> {
    const row = await users.findById(id);
    if (!row) throw new AppError('unauthenticated', 'Sign in first');
    return { ...row, createdAt: row.createdAt.toISOString() };
  }

  app.get('/api/me', { preValidation, schema: { tags, response: { 200: meSchema } } }, (request) =>
    loadMe(userOf(request).id),
  );

  app.patch(
    '/api/me',
    {
      preValidation,
      schema: {
        tags,
        description: 'Changes my language and/or my time zone (an IANA zone, e.g. Europe/Paris).',
        body: updateMeSchema,
        response: { 200: meSchema },
      },
    },
    async (request) => {
      const { id } = userOf(request);
      const { preferredLanguage, timeZone } = request.body;
      if (preferredLanguage !== undefined) await users.setLanguage(id, preferredLanguage);
      if (timeZone !== undefined) await users.setTimeZone(id, timeZone);
      return loadMe(id);
    },
  );
}
