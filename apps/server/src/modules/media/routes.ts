import { mediaKinds, mediaListSchema, mediaSchema } from '@cadence/shared/schemas/media';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { signedIn, userOf } from '../../auth/route-guards.ts';
import { AppError } from '../../lib/app-error.ts';
import { apiErrorSchema, fileReply, noBody } from '../../openapi/plugin.ts';
import type { MediaService } from './service.ts';

// Media ids are `<userId>-<hex>` (uploads) or `<kind>-<hex>`: anything else cannot exist, and a NUL
// byte would not even reach PostgreSQL as text.
const idParams = z.object({ id: z.string().regex(/^[A-Za-z0-9_-]{1,200}$/) });
const listQuery = z.object({ kind: z.enum(mediaKinds).optional() });
const fileQuery = z.object({ download: z.enum(['0', '1']).optional() });

/** `bytes=a-b`, `bytes=a-` or `bytes=-n` (one range only, as browsers send for video). */
export function parseRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | null | 'invalid' {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return 'invalid';
  let start: number;
  let end: number;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  if (start > end || start >= size) return 'invalid';
  return { start, end };
}

export async function mediaRoutes(fastify: FastifyInstance, { media }: { media: MediaService }) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const preValidation = signedIn(fastify);
  const tags = ['media'];

  app.get(
    '/api/media',
    { preValidation, schema: { tags, querystring: listQuery, response: { 200: mediaListSchema } } },
    async (request) => ({ media: await media.list(userOf(request).id, request.query.kind) }),
  );

  app.get(
    '/api/media/:id',
    { preValidation, schema: { tags, params: idParams, response: { 200: mediaSchema } } },
    async (request) => media.get(userOf(request).id, request.params.id),
  );

  app.delete(
    '/api/media/:id',
    { preValidation, schema: { tags, params: idParams, response: { 204: noBody('Deleted') } } },
    async (request, reply) => {
      await media.remove(userOf(request).id, request.params.id);
      return reply.status(204).send();
    },
  );

  // The video itself, with Range support so <video> can seek; ?download=1 makes it an attachment.
  const video = fileReply('video/*', 'The video (the Range header asks for a part: 206)');
  app.get(
    '/api/media/:id/file',
    {
      preValidation,
      schema: {
        tags,
        params: idParams,
        querystring: fileQuery,
        response: { 200: video, 206: video, 416: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const user = userOf(request);
      const { id } = request.params;
      const { download } = request.query;
      const row = await media.getRow(user.id, id);
      const range = parseRange(request.headers.range, row.size_bytes);
      if (range === 'invalid') {
        return reply
          .status(416)
          .header('content-range', `bytes */${row.size_bytes}`)
          .send({ code: 'validation_failed', message: 'Invalid range' });
      }
      const { stream } = await media.openFile(user.id, id, range ?? undefined);
      const extension = media.extensionFor(row.content_type);
      const filename = `${row.original_name.replace(/\.[^.]+$/, '').replace(/[^\w.-]+/g, '_') || 'video'}.${extension}`;
      void reply
        .header('content-type', row.content_type)
        .header('accept-ranges', 'bytes')
        .header('cache-control', 'private, max-age=3600')
        .header(
          'content-disposition',
          `${download === '1' ? 'attachment' : 'inline'}; filename="${filename}"`,
        );
      if (range) {
        void reply
          .status(206)
          .header('content-range', `bytes ${range.start}-${range.end}/${row.size_bytes}`)
          .header('content-length', range.end - range.start + 1);
      } else {
        void reply.header('content-length', row.size_bytes);
      }
      return reply.send(stream);
    },
  );

  app.get(
    '/api/media/:id/thumbnail',
    {
      preValidation,
      schema: {
        tags,
        params: idParams,
        response: { 200: fileReply('image/jpeg', 'A frame of the video') },
      },
    },
    async (request, reply) => {
      const user = userOf(request);
      const { id } = request.params;
      const stream = await media.openThumbnail(user.id, id).catch((error: unknown) => {
        throw error instanceof AppError ? error : new AppError('not_found', 'No thumbnail');
      });
      return reply
        .header('content-type', 'image/jpeg')
        .header('cache-control', 'private, max-age=86400')
        .send(stream);
    },
  );
}
