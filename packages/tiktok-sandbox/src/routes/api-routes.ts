import { validateChunkPlan } from '@cadence/shared/tiktok-chunks';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { UserFlags } from '../control.ts';
import { authorizeApiCall, parseBodyOrReject, sendEnvelope, sendEnvelopeError } from '../http.ts';
import type { SandboxUser } from '../oauth-store.ts';
import { UNAUDITED_ACTIVE_USER_CAP, type SandboxScope } from '../options.ts';
import type { SandboxState } from '../sandbox-state.ts';
import type { SandboxVideo } from '../video-catalog.ts';
import { pullVideo } from '../pull-download.ts';

const MAX_VIDEO_BYTES = 4 * 1024 * 1024 * 1024;

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

const postInfoSchema = z.object({
  // TikTok counts the title in UTF-16 code units, as String.length does.
  title: z.string().max(2200).default(''),
  privacy_level: z.string().min(1),
  disable_comment: z.boolean().default(false),
  disable_duet: z.boolean().default(false),
  disable_stitch: z.boolean().default(false),
  video_cover_timestamp_ms: z.number().int().nonnegative().nullable().default(null),
  brand_content_toggle: z.boolean().default(false),
  brand_organic_toggle: z.boolean().default(false),
  is_aigc: z.boolean().default(false),
});

const fileSourceSchema = z.object({
  source: z.literal('FILE_UPLOAD'),
  video_size: z.number().int().positive(),
  chunk_size: z.number().int().positive(),
  total_chunk_count: z.number().int().positive(),
});
const sourceInfoSchema = z.discriminatedUnion('source', [
  fileSourceSchema,
  z.object({ source: z.literal('PULL_FROM_URL'), video_url: z.string().min(1) }),
]);
const directInitSchema = z.object({ post_info: postInfoSchema, source_info: sourceInfoSchema });
const inboxInitSchema = z.object({ source_info: sourceInfoSchema });
const statusFetchSchema = z.object({ publish_id: z.string().min(1) });
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
const fieldsQuerySchema = z.object({ fields: z.string().min(1) });

function privacyOptions(flags: UserFlags): string[] {
  return flags.privateAccount
    ? ['FOLLOWER_OF_CREATOR', 'MUTUAL_FOLLOW_FRIENDS', 'SELF_ONLY']
    : ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'SELF_ONLY'];
}

function parseFields(request: FastifyRequest): string[] | null {
  const parsed = fieldsQuerySchema.safeParse(request.query);
  if (!parsed.success) return null;
  return parsed.data.fields
    .split(',')
    .map((field) => field.trim())
    .filter((field) => field.length > 0);
}

function pick(source: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(fields.map((field) => [field, source[field]]));
}

interface PublishGate {
  code: string;
  message: string;
}

/** Why this creator cannot start a post right now, or null. */
function cannotPostNow(
  state: SandboxState,
  user: SandboxUser,
  kind: 'direct' | 'inbox',
): PublishGate | null {
  const flags = state.control.flagsOf(user.username);
  if (flags.cannotPost !== null) {
    return { code: flags.cannotPost, message: 'The creator cannot post right now.' };
  }
  const directCap = flags.maxDirectPostsPerDay ?? state.options.maxDirectPostsPerDay;
  if (kind === 'direct' && state.posts.countLastDay(user.openId, 'direct') >= directCap) {
    return {
      code: 'spam_risk_too_many_posts',
      message: 'The creator has reached the daily post cap.',
    };
  }
  if (
    kind === 'inbox' &&
    state.posts.countLastDay(user.openId, 'inbox') >= state.options.maxInboxSharesPerDay
  ) {
    return {
      code: 'spam_risk_too_many_pending_share',
      message: `The creator already has ${state.options.maxInboxSharesPerDay} pending inbox shares from the last 24 hours: they must post or delete some in the TikTok app first.`,
    };
  }
  return null;
}

/**
 * What an app TikTok has not audited yet may not do (content-sharing-guidelines): let a sixth
 * creator post within 24 h, post to a public account, or post anything but SELF_ONLY.
 * `privacyLevel` is null for creator_info (nothing chosen yet).
 */
function unauditedRefusal(
  state: SandboxState,
  auth: { user: SandboxUser; clientKey: string },
  privacyLevel: string | null,
): PublishGate | null {
  if (state.oauth.findClient(auth.clientKey)?.unaudited !== true) return null;
  const posters = state.posts.postersLastDay(auth.clientKey);
  if (!posters.has(auth.user.openId) && posters.size >= UNAUDITED_ACTIVE_USER_CAP) {
    return {
      code: 'reached_active_user_cap',
      message: `Unaudited clients can let at most ${UNAUDITED_ACTIVE_USER_CAP} users post in 24 hours.`,
    };
  }
  if (privacyLevel === null) return null;
  if (!state.control.flagsOf(auth.user.username).privateAccount) {
    return {
      code: 'unaudited_client_can_only_post_to_private_accounts',
      message: 'Unaudited clients can only post to private accounts.',
    };
  }
  if (privacyLevel !== 'SELF_ONLY') {
    return {
      code: 'unaudited_client_can_only_post_to_private_accounts',
      message: 'Unaudited clients can only post with privacy_level SELF_ONLY.',
    };
  }
  return null;
}

/** Content Posting, user info and video list: the Bearer-authenticated v2 API. */
export function registerApiRoutes(
  fastify: FastifyInstance,
  state: SandboxState,
  publicBaseUrl: (request: FastifyRequest) => string,
): void {
  const avatarUrl = (request: FastifyRequest, user: SandboxUser) =>
    `${publicBaseUrl(request)}/avatar/${user.openId}.svg`;

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
      const avatar = avatarUrl(request, user);
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
        creator_avatar_url: avatarUrl(request, auth.user),
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

  /** Shared by direct and inbox init once the body is parsed. */
  function startUpload(
    request: FastifyRequest,
    reply: FastifyReply,
    auth: { user: SandboxUser; clientKey: string },
    kind: 'direct' | 'inbox',
    sourceInfo: z.infer<typeof sourceInfoSchema>,
    postInfo: z.infer<typeof postInfoSchema> | null,
  ): FastifyReply {
    const blocked = cannotPostNow(state, auth.user, kind);
    if (blocked !== null)
      return sendEnvelopeError(reply, state, 403, blocked.code, blocked.message);
    if (postInfo !== null) {
      const flags = state.control.flagsOf(auth.user.username);
      if (!privacyOptions(flags).includes(postInfo.privacy_level)) {
        return sendEnvelopeError(
          reply,
          state,
          403,
          'privacy_level_option_mismatch',
          'privacy_level is not one of the privacy_level_options from creator_info.',
        );
      }
      const unaudited = unauditedRefusal(state, auth, postInfo.privacy_level);
      if (unaudited !== null) {
        return sendEnvelopeError(reply, state, 403, unaudited.code, unaudited.message);
      }
    }
    if (sourceInfo.source === 'PULL_FROM_URL') {
      return startPull(reply, auth, kind, sourceInfo.video_url, postInfo);
    }
    const { video_size: videoSize, chunk_size: chunkSize } = sourceInfo;
    const planError =
      videoSize > MAX_VIDEO_BYTES
        ? 'video_size must be at most 4 GB'
        : validateChunkPlan(videoSize, chunkSize, sourceInfo.total_chunk_count);
    if (planError !== null) {
      return sendEnvelopeError(reply, state, 400, 'invalid_params', planError);
    }
    const post = state.posts.create({
      kind,
      clientKey: auth.clientKey,
      openId: auth.user.openId,
      postInfo,
      videoSize,
      chunkSize,
      totalChunkCount: sourceInfo.total_chunk_count,
      videoUrl: null,
    });
    const query = new URLSearchParams({ upload_id: post.uploadId, upload_token: post.uploadToken });
    return sendEnvelope(reply, state, 200, {
      publish_id: post.publishId,
      upload_url: `${publicBaseUrl(request)}/upload/?${query.toString()}`,
    });
  }

  /**
   * PULL_FROM_URL: only from a URL prefix the app verified (else url_ownership_unverified); the
   * answer carries no upload_url, and the sandbox downloads the video while the status says
   * PROCESSING_DOWNLOAD (pull-download.ts).
   */
  function startPull(
    reply: FastifyReply,
    auth: { user: SandboxUser; clientKey: string },
    kind: 'direct' | 'inbox',
    videoUrl: string,
    postInfo: z.infer<typeof postInfoSchema> | null,
  ): FastifyReply {
    if (!URL.canParse(videoUrl) || !/^https?:$/.test(new URL(videoUrl).protocol)) {
      return sendEnvelopeError(
        reply,
        state,
        400,
        'invalid_params',
        'video_url must be an http(s) URL.',
      );
    }
    const verified = state.oauth.findClient(auth.clientKey)?.verifiedUrlPrefixes ?? [];
    if (!verified.some((prefix) => videoUrl.startsWith(prefix))) {
      return sendEnvelopeError(
        reply,
        state,
        403,
        'url_ownership_unverified',
        'video_url is not under a URL prefix or domain this app has verified.',
      );
    }
    const post = state.posts.create({
      kind,
      clientKey: auth.clientKey,
      openId: auth.user.openId,
      postInfo,
      videoSize: 0,
      chunkSize: 0,
      totalChunkCount: 0,
      videoUrl,
    });
    void pullVideo(post, videoUrl, () => state.now());
    return sendEnvelope(reply, state, 200, { publish_id: post.publishId });
  }

  fastify.post(
    '/v2/post/publish/video/init/',
    { config: { tiktokSandboxEndpoint: 'video_init' } },
    async (request, reply) => {
      const auth = authorizeApiCall(request, reply, state, 'video_init', ['video.publish']);
      if (auth === null) return reply;
      const parsed = parseBodyOrReject(reply, state, directInitSchema, request.body);
      if (parsed === null) return reply;
      return startUpload(request, reply, auth, 'direct', parsed.source_info, parsed.post_info);
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
      return startUpload(request, reply, auth, 'inbox', parsed.source_info, null);
    },
  );

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

  fastify.post(
    '/v2/video/list/',
    { config: { tiktokSandboxEndpoint: 'video_list' } },
    async (request, reply) => {
      const auth = authorizeApiCall(request, reply, state, 'video_list', ['video.list']);
      if (auth === null) return reply;
      const fields = videoFieldsOrReject(request, reply);
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
      return sendEnvelope(reply, state, 200, {
        videos: page.map((video) => pick(videoOf(request, video, now), fields)),
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
      const fields = videoFieldsOrReject(request, reply);
      if (fields === null) return reply;
      const parsed = parseBodyOrReject(reply, state, videoQuerySchema, request.body ?? {});
      if (parsed === null) return reply;
      const now = state.now();
      // Only the user's own public videos come back; unknown or foreign ids are left out.
      const wanted = new Set(parsed.filters.video_ids);
      const videos = state.videos
        .publicVideosOf(auth.user, now)
        .filter((video) => wanted.has(video.id));
      return sendEnvelope(reply, state, 200, {
        videos: videos.map((video) => pick(videoOf(request, video, now), fields)),
      });
    },
  );

  function videoOf(
    request: FastifyRequest,
    video: SandboxVideo,
    now: number,
  ): Record<string, unknown> {
    // TikTok's address shape, on the sandbox's own page (a sandbox id exists nowhere else).
    const shareUrl = `${publicBaseUrl(request)}/@${encodeURIComponent(video.username)}/video/${video.id}`;
    const metrics = state.videos.metricsOf(video, now);
    return {
      id: video.id,
      create_time: Math.floor(video.createdAtMs / 1000),
      // TikTok's cover links expire after 6 hours; the sandbox's never do.
      cover_image_url: `${publicBaseUrl(request)}/cover/${video.id}.svg`,
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
  function videoFieldsOrReject(request: FastifyRequest, reply: FastifyReply): string[] | null {
    const fields = parseFields(request);
    if (fields === null || fields.length === 0) {
      sendEnvelopeError(reply, state, 400, 'invalid_params', 'fields is required.');
      return null;
    }
    const unknown = fields.filter((field) => !VIDEO_FIELDS.has(field));
    if (unknown.length > 0) {
      sendEnvelopeError(
        reply,
        state,
        400,
        'invalid_params',
        `Unknown fields: ${unknown.join(',')}.`,
      );
      return null;
    }
    return fields;
  }
}
