// Making schedules: the form's POST /api/schedules, 'Add to queue', and the form's preview.
import { schedulePreviewBodySchema, schedulePreviewSchema } from '@cadence/shared/schemas/planning';
import {
  addToQueueSchema,
  createScheduleSchema,
  postSchema,
} from '@cadence/shared/schemas/schedule';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { signedIn, userOf } from '../../auth/route-guards.ts';
import { requestKeyOf, sendMade } from '../../lib/idempotency.ts';
import type { ScheduleService } from './service.ts';

const createReply = z.object({ scheduleId: z.string(), posts: z.array(postSchema) });

const idempotencyNote =
  'An `Idempotency-Key` header (16–128 of A–Z, a–z, 0–9, - and _) makes a retry safe: the same key with the same body answers the schedule the first request made, with `Idempotent-Replayed: true`, and makes nothing; the same key with another body is a 409.';

export function registerScheduleRoutes(fastify: FastifyInstance, schedules: ScheduleService) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const preValidation = signedIn(fastify);
  const tags = ['posts'];

  app.post(
    '/api/schedules',
    {
      preValidation,
      schema: {
        tags,
        description: idempotencyNote,
        body: createScheduleSchema,
        response: { 201: createReply },
      },
    },
    async (request, reply) =>
      sendMade(
        reply,
        await schedules.create(userOf(request).id, request.body, requestKeyOf(request)),
      ),
  );

  app.post(
    '/api/schedules/queue',
    {
      preValidation,
      schema: {
        tags,
        description:
          "'Add to queue': each video in the account's next free posting slot (user's zone; days at the daily cap skipped). " +
          idempotencyNote,
        body: addToQueueSchema,
        response: { 201: createReply },
      },
    },
    async (request, reply) =>
      sendMade(
        reply,
        await schedules.addToQueue(userOf(request).id, request.body, requestKeyOf(request)),
      ),
  );

  app.post(
    '/api/schedules/preview',
    {
      preValidation,
      schema: {
        tags,
        description:
          "Every slot the form's timing would give, each day's count against the daily cap, and where posts beyond it could go. Creates nothing.",
        body: schedulePreviewBodySchema,
        response: { 200: schedulePreviewSchema },
      },
    },
    async (request) => schedules.preview(userOf(request).id, request.body),
  );
}
