import { uuidParams } from '@cadence/shared/schemas/params';
import {
  createMemeAnalysisSchema,
  memeAnalysisListSchema,
  memeAnalysisSchema,
  recompileMemeSchema,
} from '@cadence/shared/schemas/meme';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { signedIn, userCheck, userOf } from '../../auth/route-guards.ts';
import { fileReply } from '../../openapi/plugin.ts';
import type { MemeService } from './service.ts';

const thumbnailParams = z.object({ id: z.uuid(), index: z.coerce.number().int().min(0).max(1000) });

/**
 * Meme detector endpoints; every one refuses non-Pro users before looking at anything else. The
 * schemas' `memes.errors.*` keys reach the client through the common validation handling, so the
 * form shows 'Veuillez entrer une URL YouTube valide' under the field.
 */
export async function memeRoutes(fastify: FastifyInstance, { memes }: { memes: MemeService }) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const preValidation = [signedIn(fastify), userCheck((userId) => memes.assertPro(userId))];
  const tags = ['memes'];

  app.get(
    '/api/memes',
    {
      preValidation: signedIn(fastify),
      schema: { tags, response: { 200: memeAnalysisListSchema } },
    },
    async (request) => ({ analyses: await memes.list(userOf(request).id) }),
  );

  app.post(
    '/api/memes',
    {
      preValidation,
      schema: { tags, body: createMemeAnalysisSchema, response: { 201: memeAnalysisSchema } },
    },
    async (request, reply) =>
      reply.status(201).send(await memes.create(userOf(request).id, request.body)),
  );

  app.get(
    '/api/memes/:id',
    { preValidation, schema: { tags, params: uuidParams, response: { 200: memeAnalysisSchema } } },
    async (request) => memes.get(userOf(request).id, request.params.id),
  );

  app.post(
    '/api/memes/:id/cancel',
    { preValidation, schema: { tags, params: uuidParams, response: { 200: memeAnalysisSchema } } },
    async (request) => memes.cancel(userOf(request).id, request.params.id),
  );

  app.post(
    '/api/memes/:id/recompile',
    {
      preValidation,
      schema: {
        tags,
        params: uuidParams,
        body: recompileMemeSchema,
        response: { 200: memeAnalysisSchema },
      },
    },
    async (request) => memes.recompile(userOf(request).id, request.params.id, request.body),
  );

  app.get(
    '/api/memes/:id/extracts/:index/thumbnail',
    {
      preValidation,
      schema: {
        tags,
        params: thumbnailParams,
        response: { 200: fileReply('image/jpeg', 'A frame of the extract') },
      },
    },
    async (request, reply) => {
      const { id, index } = request.params;
      const stream = await memes.openThumbnail(userOf(request).id, id, index);
      return reply
        .header('content-type', 'image/jpeg')
        .header('cache-control', 'private, max-age=3600')
        .send(stream);
    },
  );
}
