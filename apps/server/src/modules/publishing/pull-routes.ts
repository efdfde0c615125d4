import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';
import { apiErrorSchema, fileReply } from '../../openapi/plugin.ts';
import type { MediaStorage } from '../../storage/media-storage.ts';
import { PULL_MEDIA_PATH, type PullUrls } from './pull-urls.ts';

const params = z.object({ postId: z.uuid() });
const query = z.object({
  expires: z.string().regex(/^\d{1,12}$/),
  signature: z.string().regex(/^[\w-]{1,100}$/),
});

/**
 * The video of one post, for TikTok's PULL_FROM_URL download: no session, the signed link is the
 * permission (pull-urls.ts). Registered only when TIKTOK_PULL_FROM_URL_PREFIX is set.
 */
export async function pullMediaRoutes(
  fastify: FastifyInstance,
  deps: { db: Kysely<Database>; storage: MediaStorage; pullUrls: PullUrls },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    `${PULL_MEDIA_PATH}:postId`,
    {
      schema: {
        tags: ['publishing'],
        params,
        querystring: query,
        response: {
          200: fileReply('video/*', 'The post’s video, for TikTok to download'),
          403: apiErrorSchema,
          404: apiErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const { postId } = request.params;
      const checked = deps.pullUrls.check(postId, request.query.expires, request.query.signature);
      if (checked !== 'ok') {
        throw new AppError('forbidden', `Pull link ${checked}`);
      }
      const row = await deps.db
        .selectFrom('posts')
        .innerJoin('media', 'media.id', 'posts.media_id')
        .select(['media.storage_key', 'media.content_type', 'media.size_bytes'])
        .where('posts.id', '=', postId)
        .where('posts.status', 'in', ['pending', 'publishing'])
        .executeTakeFirst();
      if (!row) throw new AppError('not_found', 'No such post to pull');
      const stream = await deps.storage.createReadStream(row.storage_key);
      return reply
        .header('content-type', row.content_type)
        .header('content-length', row.size_bytes)
        .header('cache-control', 'no-store')
        .send(stream);
    },
  );
}
