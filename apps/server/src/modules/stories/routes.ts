import { createStoriesSchema, storyListSchema, storySchema } from '@cadence/shared/schemas/story';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { StoryService } from './service.ts';

const idParams = z.object({ id: z.uuid() });

/** Story endpoints; every one refuses non-Pro users (the service checks before anything else). */
export async function storyRoutes(app: FastifyInstance, { stories }: { stories: StoryService }) {
  app.get('/api/stories', async (request) => {
    const user = await app.requireUser(request);
    return storyListSchema.parse({ stories: await stories.list(user.id) });
  });

  app.post('/api/stories', async (request, reply) => {
    const user = await app.requireUser(request);
    // Pro before validation: a non-Pro user hears 'Pro' whatever the body holds.
    await stories.assertPro(user.id);
    const created = await stories.create(user.id, createStoriesSchema.parse(request.body));
    return reply.status(201).send(storyListSchema.parse({ stories: created }));
  });

  app.post('/api/stories/:id/cancel', async (request) => {
    const user = await app.requireUser(request);
    await stories.assertPro(user.id);
    const { id } = idParams.parse(request.params);
    return storySchema.parse(await stories.cancel(user.id, id));
  });

  app.delete('/api/stories/:id', async (request, reply) => {
    const user = await app.requireUser(request);
    await stories.assertPro(user.id);
    const { id } = idParams.parse(request.params);
    await stories.remove(user.id, id);
    return reply.status(204).send();
  });
}
