import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { authorizeApiCall, parseBodyOrReject, sendEnvelope, sendEnvelopeError } from '../http.ts';
import type { SandboxState } from '../sandbox-state.ts';
import type { SandboxVideo } from '../video-catalog.ts';
import { parseFields, pick } from './api-fields.ts';

const VIDEO_FIELDS = new Set([
  'id',
  'create_time',
  'cover_image_url',
  'share_url',
  'video_description',
  'duration',
  'height',
  'width',
  'title',
  'embed_html',
  'embed_link',
  'like_count',
  'comment_count',
  'share_count',
  'view_count',
]);

const videoListSchema = z.object({
  cursor: z.number().int().nonnegative().optional(),
  max_count: z.number().int().min(1).max(20).default(10),
});
// "Up to 20 video IDs can be included per request" (tiktok-api-v2-video-query).
const videoQuerySchema = z.object({
  filters: z.object({
    video_ids: z
      .array(z.union([z.string().min(1), z.number().int()]).transform(String))
      .min(1)
      .max(20),
  }),
});

/** A video as the Display API describes it, every field (the route picks the asked ones). */
function videoOf(
  state: SandboxState,
  baseUrl: string,
  video: SandboxVideo,
  now: number,
): Record<string, unknown> {
  // TikTok's address shape, on the sandbox's own page (a sandbox id exists nowhere else).
  const shareUrl = `${baseUrl}/@${encodeURIComponent(video.username)}/video/${video.id}`;
  const metrics = state.videos.metricsOf(video, now);
  return {
    id: video.id,
    create_time: Math.floor(video.createdAtMs / 1000),
    // TikTok's cover links expire after 6 hours; the sandbox's never do.
    cover_image_url: `${baseUrl}/cover/${video.id}.svg`,
    share_url: shareUrl,
    video_description: video.title,
    title: video.title,
    // The sandbox does not decode the video: duration and size are unknown.
    duration: 0,
    height: 0,
    width: 0,
    embed_html: '',
    embed_link: `https://www.tiktok.com/embed/v2/${video.id}`,
    like_count: metrics.likeCount,
    comment_count: metrics.commentCount,
    share_count: metrics.shareCount,
    view_count: metrics.viewCount,
  };
}

/** The `fields` query of video list/query, or null once a 400 was sent. */
function videoFieldsOrReject(
  state: SandboxState,
  request: FastifyRequest,
  reply: FastifyReply,
): string[] | null {
  const fields = parseFields(request);
  if (fields === null || fields.length === 0) {
    sendEnvelopeError(reply, state, 400, 'invalid_params', 'fields is required.');
    return null;
  }
  const unknown = fields.filter((field) => !VIDEO_FIELDS.has(field));
  if (unknown.length > 0) {
    sendEnvelopeError(reply, state, 400, 'invalid_params', `Unknown fields: ${unknown.join(',')}.`);
    return null;
  }
  return fields;
}

/** The Display API: a creator's public videos, listed page by page or queried by id. */
export function registerVideoRoutes(
  fastify: FastifyInstance,
  state: SandboxState,
  publicBaseUrl: (request: FastifyRequest) => string,
): void {
  fastify.post(
    '/v2/video/list/',
    { config: { tiktokSandboxEndpoint: 'video_list' } },
    async (request, reply) => {
      const auth = authorizeApiCall(request, reply, state, 'video_list', ['video.list']);
      if (auth === null) return reply;
      const fields = videoFieldsOrReject(state, request, reply);
      if (fields === null) return reply;
      const parsed = parseBodyOrReject(reply, state, videoListSchema, request.body ?? {});
      if (parsed === null) return reply;
      const { cursor, max_count: maxCount } = parsed;
      const now = state.now();
      // Public videos only, newest first; the cursor is a creation time in ms, as TikTok's is:
      // a page holds the videos created before it.
      const published = state.videos
        .publicVideosOf(auth.user, now)
        .filter((video) => cursor === undefined || video.createdAtMs < cursor);
      const page = published.slice(0, maxCount);
      const last = page.at(-1);
      const baseUrl = publicBaseUrl(request);
      return sendEnvelope(reply, state, 200, {
        videos: page.map((video) => pick(videoOf(state, baseUrl, video, now), fields)),
        cursor: last?.createdAtMs ?? cursor ?? 0,
        has_more: published.length > page.length,
      });
    },
  );

  fastify.post(
    '/v2/video/query/',
    { config: { tiktokSandboxEndpoint: 'video_query' } },
    async (request, reply) => {
      const auth = authorizeApiCall(request, reply, state, 'video_query', ['video.list']);
      if (auth === null) return reply;
      const fields = videoFieldsOrReject(state, request, reply);
      if (fields === null) return reply;
      const parsed = parseBodyOrReject(reply, state, videoQuerySchema, request.body ?? {});
      if (parsed === null) return reply;
      const now = state.now();
      // Only the user's own public videos come back; unknown or foreign ids are left out.
      const wanted = new Set(parsed.filters.video_ids);
      const videos = state.videos
        .publicVideosOf(auth.user, now)
        .filter((video) => wanted.has(video.id));
      const baseUrl = publicBaseUrl(request);
      return sendEnvelope(reply, state, 200, {
        videos: videos.map((video) => pick(videoOf(state, baseUrl, video, now), fields)),
      });
    },
  );
}
