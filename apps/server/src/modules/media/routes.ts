import { mediaKinds, mediaListSchema, mediaSchema } from '@cadence/shared/schemas/media';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../lib/app-error.ts';
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

export async function mediaRoutes(app: FastifyInstance, { media }: { media: MediaService }) {
  app.get('/api/media', async (request) => {
    const user = await app.requireUser(request);
    const { kind } = listQuery.parse(request.query);
    return mediaListSchema.parse({ media: await media.list(user.id, kind) });
  });

  app.get('/api/media/:id', async (request) => {
    const user = await app.requireUser(request);
    const { id } = idParams.parse(request.params);
    return mediaSchema.parse(await media.get(user.id, id));
  });

  app.delete('/api/media/:id', async (request, reply) => {
    const user = await app.requireUser(request);
    const { id } = idParams.parse(request.params);
    await media.remove(user.id, id);
    return reply.status(204).send();
  });

  // The video itself, with Range support so <video> can seek; ?download=1 makes it an attachment.
  app.get('/api/media/:id/file', async (request, reply) => {
    const user = await app.requireUser(request);
    const { id } = idParams.parse(request.params);
    const { download } = fileQuery.parse(request.query);
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
  });

  app.get('/api/media/:id/thumbnail', async (request, reply) => {
    const user = await app.requireUser(request);
    const { id } = idParams.parse(request.params);
    const stream = await media.openThumbnail(user.id, id).catch((error: unknown) => {
      throw error instanceof AppError ? error : new AppError('not_found', 'No thumbnail');
    });
    return reply
      .header('content-type', 'image/jpeg')
      .header('cache-control', 'private, max-age=86400')
      .send(stream);
  });
}
