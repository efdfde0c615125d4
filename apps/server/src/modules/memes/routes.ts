import {
  createMemeAnalysisSchema,
  memeAnalysisListSchema,
  memeAnalysisSchema,
  recompileMemeSchema,
} from '@cadence/shared/schemas/meme';
import type { FastifyInstance } from 'fastify';
import { z, type ZodType } from 'zod';
import { AppError } from '../../lib/app-error.ts';
import type { MemeService } from './service.ts';

const idParams = z.object({ id: z.uuid() });
const thumbnailParams = z.object({ id: z.uuid(), index: z.coerce.number().int().min(0).max(1000) });

/**
 * Like the global zod handling, but the schema's own `memes.*` keys reach the client too (the
 * common handler only passes `errors.*`), so the form shows 'Veuillez entrer une URL YouTube
 * valide' under the field.
 */
function parseBody<TOutput>(schema: ZodType<TOutput>, body: unknown): TOutput {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const fields: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    const key = issue.path.join('.') || '_';
    const known = issue.message.startsWith('errors.') || issue.message.startsWith('memes.');
    fields[key] ??= known ? issue.message : 'errors.invalid_value';
  }
  throw new AppError('validation_failed', 'Invalid request', fields);
}

/** Meme detector endpoints; every one refuses non-Pro users before looking at anything else. */
export async function memeRoutes(app: FastifyInstance, { memes }: { memes: MemeService }) {
  app.get('/api/memes', async (request) => {
    const user = await app.requireUser(request);
    return memeAnalysisListSchema.parse({ analyses: await memes.list(user.id) });
  });

  app.post('/api/memes', async (request, reply) => {
    const user = await app.requireUser(request);
    await memes.assertPro(user.id);
    const input = parseBody(createMemeAnalysisSchema, request.body);
    const created = await memes.create(user.id, input);
    return reply.status(201).send(memeAnalysisSchema.parse(created));
  });

  app.get('/api/memes/:id', async (request) => {
    const user = await app.requireUser(request);
    await memes.assertPro(user.id);
    const { id } = idParams.parse(request.params);
    return memeAnalysisSchema.parse(await memes.get(user.id, id));
  });

  app.post('/api/memes/:id/cancel', async (request) => {
    const user = await app.requireUser(request);
    await memes.assertPro(user.id);
    const { id } = idParams.parse(request.params);
    return memeAnalysisSchema.parse(await memes.cancel(user.id, id));
  });

  app.post('/api/memes/:id/recompile', async (request) => {
    const user = await app.requireUser(request);
    await memes.assertPro(user.id);
    const { id } = idParams.parse(request.params);
    const input = parseBody(recompileMemeSchema, request.body);
    return memeAnalysisSchema.parse(await memes.recompile(user.id, id, input));
  });

  app.get('/api/memes/:id/extracts/:index/thumbnail', async (request, reply) => {
    const user = await app.requireUser(request);
    await memes.assertPro(user.id);
    const { id, index } = thumbnailParams.parse(request.params);
    const stream = await memes.openThumbnail(user.id, id, index);
    return reply
      .header('content-type', 'image/jpeg')
      .header('cache-control', 'private, max-age=3600')
      .send(stream);
  });
}
