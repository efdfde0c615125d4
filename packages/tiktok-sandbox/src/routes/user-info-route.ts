import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authorizeApiCall, sendEnvelope, sendEnvelopeError } from '../http.ts';
import type { SandboxScope } from '../options.ts';
import type { SandboxState } from '../sandbox-state.ts';
import { avatarUrl, parseFields, pick } from './api-fields.ts';

/** Which scope each user info field needs. */
const USER_FIELD_SCOPES: Record<string, SandboxScope> = {
  open_id: 'user.info.basic',
  union_id: 'user.info.basic',
  avatar_url: 'user.info.basic',
  avatar_url_100: 'user.info.basic',
  avatar_large_url: 'user.info.basic',
  display_name: 'user.info.basic',
  bio_description: 'user.info.profile',
  profile_deep_link: 'user.info.profile',
  is_verified: 'user.info.profile',
  username: 'user.info.profile',
  follower_count: 'user.info.stats',
  following_count: 'user.info.stats',
  likes_count: 'user.info.stats',
  video_count: 'user.info.stats',
};

/** Login Kit's user info: the fields asked for, each only with the scope it needs. */
export function registerUserInfoRoute(
  fastify: FastifyInstance,
  state: SandboxState,
  publicBaseUrl: (request: FastifyRequest) => string,
): void {
  fastify.get(
    '/v2/user/info/',
    { config: { tiktokSandboxEndpoint: 'user_info' } },
    async (request, reply) => {
      const auth = authorizeApiCall(request, reply, state, 'user_info', ['user.info.basic']);
      if (auth === null) return reply;
      const fields = parseFields(request);
      if (fields === null || fields.length === 0) {
        return sendEnvelopeError(reply, state, 400, 'invalid_params', 'fields is required.');
      }
      const unknown = fields.filter((field) => USER_FIELD_SCOPES[field] === undefined);
      if (unknown.length > 0) {
        return sendEnvelopeError(
          reply,
          state,
          400,
          'invalid_params',
          `Unknown fields: ${unknown.join(',')}.`,
        );
      }
      const missingScope = fields
        .map((field) => USER_FIELD_SCOPES[field])
        .find((scope) => scope !== undefined && !auth.scopes.includes(scope));
      if (missingScope !== undefined) {
        return sendEnvelopeError(
          reply,
          state,
          401,
          'scope_not_authorized',
          `The user did not authorize the scope required for the requested fields (${missingScope}).`,
        );
      }
      const { user } = auth;
      const avatar = avatarUrl(publicBaseUrl(request), user);
      // Stats come from the audience model: followers grow with the views of public videos.
      const totals = state.videos.totalsOf(user, state.now());
      const profile: Record<string, unknown> = {
        open_id: user.openId,
        union_id: user.unionId,
        avatar_url: avatar,
        avatar_url_100: avatar,
        avatar_large_url: avatar,
        display_name: user.displayName,
        bio_description: 'Sandbox creator',
        profile_deep_link: `https://www.tiktok.com/@${user.username}`,
        is_verified: false,
        username: user.username,
        follower_count: totals.followerCount,
        following_count: totals.followingCount,
        likes_count: totals.likesCount,
        video_count: totals.videoCount,
      };
      return sendEnvelope(reply, state, 200, { user: pick(profile, fields) });
    },
  );
}
