import { uuidParams } from '@cadence/shared/schemas/params';
import { createStoriesSchema, storyListSchema, storySchema } from '@cadence/shared/schemas/story';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { signedIn, userCheck, userOf } from '../../auth/route-guards.ts';
import { noBody } from '../../openapi/plugin.ts';
import type { StoryService } from './service.ts';

/** Story endpoints; every one refuses non-Pro users (the service checks before anything else). */
export async function storyRoutes(
  fastify: FastifyInstance,
  { stories }: { stories: StoryService },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  // Pro before validation: a non-Pro user hears 'Pro' whatever the request holds.
  const preValidation = [signedIn(fastify), userCheck((userId) => stories.assertPro(userId))];
  const tags = ['stories'];

  app.get(
    '/api/stories',
    { preValidation: signedIn(fastify), schema: { tags, response: { 200: storyListSchema } } },
    async (request) => ({ stories: await stories.list(userOf(request).id) }),
  );

  app.post(
    '/api/stories',
    {
      preValidation,
      schema: { tags, body: createStoriesSchema, response: { 201: storyListSchema } },
    },
    async (request, reply) =>
      reply.status(201).send({ stories: await stories.create(userOf(request).id, request.body) }),
  );

  app.post(
    '/api/stories/:id/cancel',
    { preValidation, schema: { tags, params: uuidParams, response: { 200: storySchema } } },
    async (request) => stories.cancel(userOf(request).id, request.params.id),
  );

  app.delete(
    '/api/stories/:id',
    { preValidation, schema: { tags, params: uuidParams, response: { 204: noBody('Deleted') } } },
    async (request, reply) => {
      await stories.remove(userOf(request).id, request.params.id);
      return reply.status(204).send();
    },
  );
}
