import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { sendEnvelopeError } from '../http.ts';
import type { SandboxState } from '../sandbox-state.ts';

export const VIDEO_CONTENT_TYPES = ['video/mp4', 'video/quicktime', 'video/webm'];

const uploadQuerySchema = z.object({ upload_id: z.string(), upload_token: z.string() });

function header(value: string | string[] | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/**
 * `PUT upload_url`: one chunk per request, in order. The body is streamed through the SHA-256
 * and never held in memory, so a 64 MB chunk costs no more than a small one.
 */
export function registerUploadRoute(fastify: FastifyInstance, state: SandboxState): void {
  fastify.put(
    '/upload/',
    { config: { tiktokSandboxEndpoint: 'upload' } },
    async (request, reply) => {
      const query = uploadQuerySchema.safeParse(request.query);
      if (!query.success) {
        return sendEnvelopeError(reply, state, 404, 'upload_not_found', 'No such upload.');
      }
      if (request.headers['transfer-encoding'] !== undefined) {
        return sendEnvelopeError(
          reply,
          state,
          400,
          'invalid_params',
          'Send each chunk with a Content-Length, not chunked transfer encoding.',
        );
      }
      const begun = state.posts.beginChunk({
        uploadId: query.data.upload_id,
        uploadToken: query.data.upload_token,
        contentRange: header(request.headers['content-range']),
        contentLength: header(request.headers['content-length']),
      });
      if (!begun.ok) {
        const { status, code, message } = begun.error;
        return sendEnvelopeError(reply, state, status, code, message);
      }
      const receiver = begun.value;
      const body = request.body;
      if (!(body instanceof Readable)) {
        receiver.abort();
        return sendEnvelopeError(reply, state, 400, 'invalid_params', 'The chunk body is missing.');
      }
      try {
        for await (const piece of body) {
          if (!Buffer.isBuffer(piece) || !receiver.write(piece)) {
            receiver.abort();
            return sendEnvelopeError(
              reply,
              state,
              400,
              'invalid_params',
              'The body is longer than Content-Range.',
            );
          }
        }
      } catch (error) {
        // The client went away mid-chunk: nothing of it counts, it may send the chunk again.
        receiver.abort();
        throw error;
      }
      const committed = receiver.commit();
      if (!committed.ok) {
        const { status, code, message } = committed.error;
        return sendEnvelopeError(reply, state, status, code, message);
      }
      return reply.code(committed.value === 'complete' ? 201 : 206).send();
    },
  );
}
