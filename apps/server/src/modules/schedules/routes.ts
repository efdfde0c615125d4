import { createScheduleSchema, postSchema } from '@cadence/shared/schemas/schedule';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../lib/app-error.ts';
import { streamPostEvents, type PostStream } from './post-events.ts';
import type { ScheduleService } from './service.ts';

const postIdParams = z.object({ id: z.uuid() });
const rescheduleBody = z.object({
  dueAt: z.iso.datetime({ offset: true, error: 'errors.invalidDate' }),
});
const postsReply = z.object({ posts: z.array(postSchema) });
const createReply = z.object({ scheduleId: z.string(), posts: z.array(postSchema) });

function postId(params: unknown): string {
  const parsed = postIdParams.safeParse(params);
  // Post ids are UUIDs: anything else names no post.
  if (!parsed.success) throw new AppError('not_found', 'No such post');
  return parsed.data.id;
}

export interface ScheduleRoutesOptions {
  schedules: ScheduleService;
  /** Live-stream poll period (tests shorten it). */
  eventsPollMs?: number;
}

/** POST /api/schedules, GET /api/posts, post actions, and the live stream of post changes. */
export async function scheduleRoutes(app: FastifyInstance, options: ScheduleRoutesOptions) {
  const { schedules } = options;
  const streams = new Set<PostStream>();
  // Open streams would keep app.close() waiting for their sockets: end them first.
  app.addHook('preClose', async () => {
    for (const stream of streams) stream.close();
  });

  app.post('/api/schedules', async (request, reply) => {
    const user = await app.requireUser(request);
    const body = createScheduleSchema.parse(request.body);
    const created = await schedules.create(user.id, body);
    return reply.status(201).send(createReply.parse(created));
  });

  app.get('/api/posts', async (request) => {
    const user = await app.requireUser(request);
    return postsReply.parse({ posts: await schedules.list(user.id) });
  });

  app.post('/api/posts/:id/cancel', async (request) => {
    const user = await app.requireUser(request);
    return postSchema.parse(await schedules.cancel(user.id, postId(request.params)));
  });

  app.post('/api/posts/:id/reschedule', async (request) => {
    const user = await app.requireUser(request);
    const id = postId(request.params);
    const { dueAt } = rescheduleBody.parse(request.body);
    return postSchema.parse(await schedules.reschedule(user.id, id, new Date(dueAt)));
  });

  app.post('/api/posts/:id/retry', async (request) => {
    const user = await app.requireUser(request);
    return postSchema.parse(await schedules.retry(user.id, postId(request.params)));
  });

  app.get('/api/posts/events', async (request, reply) => {
    const user = await app.requireUser(request);
    reply.hijack();
    const stream = streamPostEvents(reply.raw, {
      changedSince: (since) => schedules.changedSince(user.id, since),
      ...(options.eventsPollMs !== undefined && { pollMs: options.eventsPollMs }),
      onError: (error) => request.log.warn({ err: error }, 'post stream poll failed'),
    });
    streams.add(stream);
    reply.raw.on('close', () => streams.delete(stream));
  });
}
