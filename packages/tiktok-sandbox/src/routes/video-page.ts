import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { pageContentSecurityPolicy, renderVideoPage } from '../consent-page.ts';
import { sendHtml } from '../http.ts';
import type { SandboxState } from '../sandbox-state.ts';
import type { SandboxVideo } from '../video-catalog.ts';

const paramsSchema = z.object({
  username: z.string().min(1).max(64),
  id: z.string().regex(/^\d{1,20}$/),
});

/** The public video `id` of `username` as of now; undefined when there is none (or not yet). */
function findPublicVideo(
  state: SandboxState,
  username: string,
  id: string,
): SandboxVideo | undefined {
  const now = state.now();
  const post = [...state.posts.posts.values()].find((candidate) => candidate.postId === id);
  const user = post === undefined ? undefined : state.oauth.findUser(post.openId);
  const videos =
    user === undefined
      ? state.videos.seededOf(username, now)
      : state.videos.publicVideosOf(user, now);
  return videos.find((video) => video.id === id && video.username === username);
}

/**
 * A published video's page at TikTok's own address shape (`/@username/video/id`), so links that
 * would open tiktok.com open the sandbox instead: a sandbox id exists nowhere else.
 */
export function registerVideoPage(fastify: FastifyInstance, state: SandboxState): void {
  fastify.get('/@:username/video/:id', async (request, reply) => {
    const params = paramsSchema.safeParse(request.params);
    const video = params.success
      ? findPublicVideo(state, params.data.username, params.data.id)
      : undefined;
    const html = renderVideoPage(
      video === undefined
        ? null
        : {
            username: video.username,
            title: video.title,
            coverPath: `../../cover/${video.id}.svg`,
            createdAtMs: video.createdAtMs,
          },
    );
    return sendHtml(reply, video === undefined ? 404 : 200, html, pageContentSecurityPolicy(null));
  });
}
