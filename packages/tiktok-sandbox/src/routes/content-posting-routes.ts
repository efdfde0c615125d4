import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { authorizeApiCall, parseBodyOrReject, sendEnvelope, sendEnvelopeError } from '../http.ts';
import type { SandboxState } from '../sandbox-state.ts';
import { avatarUrl } from './api-fields.ts';
import { cannotPostNow, privacyOptions, unauditedRefusal } from './publish-gates.ts';
import { directInitSchema, inboxInitSchema, startVideoInit } from './video-init.ts';

const statusFetchSchema = z.object({ publish_id: z.string().min(1) });

/** The Content Posting API: creator info, direct and inbox video init, publish status. */
export function registerContentPostingRoutes(
  fastify: FastifyInstance,
  state: SandboxState,
  publicBaseUrl: (request: FastifyRequest) => string,
): void {
  registerPostStartRoutes(fastify, state, publicBaseUrl);
  registerPublishStatusRoute(fastify, state);
}

/** What starts a post: creator info (may this creator post now?), then a direct or inbox init. */
function registerPostStartRoutes(
  fastify: FastifyInstance,
  state: SandboxState,
  publicBaseUrl: (request: FastifyRequest) => string,
): void {
  fastify.post(
    '/v2/post/publish/creator_info/query/',
    { config: { tiktokSandboxEndpoint: 'creator_info' } },
    async (request, reply) => {
      const auth = authorizeApiCall(request, reply, state, 'creator_info', ['video.publish']);
      if (auth === null) return reply;
      const blocked =
        cannotPostNow(state, auth.user, 'direct') ?? unauditedRefusal(state, auth, null);
      // TikTok reports "cannot post now" with HTTP 200: only the body tells.
      if (blocked !== null) {
        return sendEnvelopeError(reply, state, 200, blocked.code, blocked.message);
      }
      const flags = state.control.flagsOf(auth.user.username);
      return sendEnvelope(reply, state, 200, {
        creator_avatar_url: avatarUrl(publicBaseUrl(request), auth.user),
        creator_username: auth.user.username,
        creator_nickname: auth.user.displayName,
        privacy_level_options: privacyOptions(flags),
        comment_disabled: flags.commentDisabled,
        duet_disabled: flags.duetDisabled,
        stitch_disabled: flags.stitchDisabled,
        ...(flags.maxVideoPostDurationSec !== null && {
          max_video_post_duration_sec: flags.maxVideoPostDurationSec,
        }),
      });
    },
  );

  fastify.post(
    '/v2/post/publish/video/init/',
    { config: { tiktokSandboxEndpoint: 'video_init' } },
    async (request, reply) => {
      const auth = authorizeApiCall(request, reply, state, 'video_init', ['video.publish']);
      if (auth === null) return reply;
      const parsed = parseBodyOrReject(reply, state, directInitSchema, request.body);
      if (parsed === null) return reply;
      return startVideoInit(state, reply, publicBaseUrl(request), {
        auth,
        kind: 'direct',
        sourceInfo: parsed.source_info,
        postInfo: parsed.post_info,
      });
    },
  );

  fastify.post(
    '/v2/post/publish/inbox/video/init/',
    { config: { tiktokSandboxEndpoint: 'inbox_init' } },
    async (request, reply) => {
      const auth = authorizeApiCall(request, reply, state, 'inbox_init', ['video.upload']);
      if (auth === null) return reply;
      const parsed = parseBodyOrReject(reply, state, inboxInitSchema, request.body);
      if (parsed === null) return reply;
      return startVideoInit(state, reply, publicBaseUrl(request), {
        auth,
        kind: 'inbox',
        sourceInfo: parsed.source_info,
        postInfo: null,
      });
    },
  );
}

/** Where a started post stands: uploading, processing, published (with its public ids) or failed. */
function registerPublishStatusRoute(fastify: FastifyInstance, state: SandboxState): void {
  fastify.post(
    '/v2/post/publish/status/fetch/',
    { config: { tiktokSandboxEndpoint: 'status_fetch' } },
    async (request, reply) => {
      const auth = authorizeApiCall(request, reply, state, 'status_fetch', [
        'video.publish',
        'video.upload',
      ]);
      if (auth === null) return reply;
      const parsed = parseBodyOrReject(reply, state, statusFetchSchema, request.body);
      if (parsed === null) return reply;
      const post = state.posts.find(parsed.publish_id);
      if (post === undefined || post.openId !== auth.user.openId) {
        return sendEnvelopeError(reply, state, 400, 'invalid_params', 'publish_id does not exist.');
      }
      const view = state.posts.statusOf(post);
      let status: string = view.status;
      const override = post.statusOverride;
      if (override !== null && override.remaining > 0) {
        override.remaining -= 1;
        status = override.status;
      }
      return sendEnvelope(reply, state, 200, {
        status,
        ...(view.failReason === null ? {} : { fail_reason: view.failReason }),
        publicaly_available_post_id: view.publicPostIds,
        uploaded_bytes: view.uploadedBytes,
      });
    },
  );
}
