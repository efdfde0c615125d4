import { uuidParams } from '@cadence/shared/schemas/params';
import {
  draftBodySchema,
  draftListSchema,
  draftSchema,
  scheduleDraftSchema,
} from '@cadence/shared/schemas/planning';
import { postSchema } from '@cadence/shared/schemas/schedule';
import type { FastifyInstance, preValidationAsyncHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { signedIn, userOf } from '../../auth/route-guards.ts';
import { AppError } from '../../lib/app-error.ts';
import { noBody } from '../../openapi/plugin.ts';
import type { DraftService } from './service.ts';

/** Draft ids are UUIDs: anything else names no draft (404 before any 400 of the body). */
const existingDraftId: preValidationAsyncHookHandler = async (request) => {
  if (!uuidParams.safeParse(request.params).success) {
    throw new AppError('not_found', 'No such draft');
  }
};

const scheduledReply = z.object({ scheduleId: z.string(), posts: z.array(postSchema) });

/** /api/drafts: the schedule form saved without a time, listed, reopened, and scheduled. */
export async function draftRoutes(fastify: FastifyInstance, { drafts }: { drafts: DraftService }) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const preValidation = signedIn(fastify);
  const onDraft = [preValidation, existingDraftId];
  const tags = ['drafts'];

  app.get(
    '/api/drafts',
    {
      preValidation,
      schema: {
        tags,
        description: 'My drafts, most recently saved first (at most 100).',
        response: { 200: draftListSchema },
      },
    },
    async (request) => ({ drafts: await drafts.list(userOf(request).id) }),
  );

  app.post(
    '/api/drafts',
    { preValidation, schema: { tags, body: draftBodySchema, response: { 201: draftSchema } } },
    async (request, reply) =>
      reply.status(201).send(await drafts.create(userOf(request).id, request.body)),
  );

  app.get(
    '/api/drafts/:id',
    {
      preValidation: onDraft,
      schema: { tags, params: uuidParams, response: { 200: draftSchema } },
    },
    async (request) => drafts.get(userOf(request).id, request.params.id),
  );

  app.put(
    '/api/drafts/:id',
    {
      preValidation: onDraft,
      schema: { tags, params: uuidParams, body: draftBodySchema, response: { 200: draftSchema } },
    },
    async (request) => drafts.update(userOf(request).id, request.params.id, request.body),
  );

  app.delete(
    '/api/drafts/:id',
    {
      preValidation: onDraft,
      schema: { tags, params: uuidParams, response: { 204: noBody('Deleted') } },
    },
    async (request, reply) => {
      await drafts.remove(userOf(request).id, request.params.id);
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/drafts/:id/schedule',
    {
      preValidation: onDraft,
      schema: {
        tags,
        description:
          'The draft becomes a schedule at the time given (checked as POST /api/schedules) and is deleted.',
        params: uuidParams,
        body: scheduleDraftSchema,
        response: { 201: scheduledReply },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await drafts.schedule(userOf(request).id, request.params.id, request.body)),
  );
}
