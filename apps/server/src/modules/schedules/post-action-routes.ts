// One post read and acted on: get, cancel, reschedule, edit, restore, retry.
import { uuidParams } from '@cadence/shared/schemas/params';
import { editPostSchema, reschedulePostSchema } from '@cadence/shared/schemas/planning';
import { postSchema } from '@cadence/shared/schemas/schedule';
import type { FastifyInstance, preValidationAsyncHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { signedIn, userOf } from '../../auth/route-guards.ts';
import { AppError } from '../../lib/app-error.ts';
import type { ScheduleService } from './service.ts';

/**
 * Post ids are UUIDs: anything else names no post, so it is a 404 (not the 400 of a params schema),
 * and it comes before the body's 400, as a route that cannot exist would.
 */
const existingPostId: preValidationAsyncHookHandler = async (request) => {
  if (!uuidParams.safeParse(request.params).success) {
    throw new AppError('not_found', 'No such post');
  }
};

export function registerPostActionRoutes(fastify: FastifyInstance, schedules: ScheduleService) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const postAction = [signedIn(fastify), existingPostId];
  const tags = ['posts'];

  app.get(
    '/api/posts/:id',
    {
      preValidation: postAction,
      schema: { tags, params: uuidParams, response: { 200: postSchema } },
    },
    async (request) => schedules.get(userOf(request).id, request.params.id),
  );

  app.post(
    '/api/posts/:id/cancel',
    {
      preValidation: postAction,
      schema: { tags, params: uuidParams, response: { 200: postSchema } },
    },
    async (request) => schedules.cancel(userOf(request).id, request.params.id),
  );

  app.post(
    '/api/posts/:id/reschedule',
    {
      preValidation: postAction,
      schema: {
        tags,
        description:
          'A new time for a pending post, or a cancelled or failed one (pending again, as a new TikTok post).',
        params: uuidParams,
        body: reschedulePostSchema,
        response: { 200: postSchema },
      },
    },
    async (request) => {
      const { id } = request.params;
      return schedules.reschedule(userOf(request).id, id, new Date(request.body.dueAt));
    },
  );

  app.patch(
    '/api/posts/:id',
    {
      preValidation: postAction,
      schema: {
        tags,
        description:
          'Caption, privacy, interactions and time of a pending post; 409 once it started publishing.',
        params: uuidParams,
        body: editPostSchema,
        response: { 200: postSchema },
      },
    },
    async (request) => schedules.edit(userOf(request).id, request.params.id, request.body),
  );

  app.post(
    '/api/posts/:id/restore',
    {
      preValidation: postAction,
      schema: {
        tags,
        description: 'A cancelled post back to pending, if its time is still ahead.',
        params: uuidParams,
        response: { 200: postSchema },
      },
    },
    async (request) => schedules.restore(userOf(request).id, request.params.id),
  );

  app.post(
    '/api/posts/:id/retry',
    {
      preValidation: postAction,
      schema: { tags, params: uuidParams, response: { 200: postSchema } },
    },
    async (request) => schedules.retry(userOf(request).id, request.params.id),
  );
}
