import { validateChunkPlan } from '@cadence/shared/tiktok-chunks';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { sendEnvelope, sendEnvelopeError } from '../http.ts';
import type { SandboxUser } from '../oauth-store.ts';
import { pullVideo } from '../pull-download.ts';
import type { SandboxState } from '../sandbox-state.ts';
import { cannotPostNow, privacyOptions, unauditedRefusal } from './publish-gates.ts';

const MAX_VIDEO_BYTES = 4 * 1024 * 1024 * 1024;

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
export const directInitSchema = z.object({
  post_info: postInfoSchema,
  source_info: sourceInfoSchema,
});
export const inboxInitSchema = z.object({ source_info: sourceInfoSchema });

/** A direct post or inbox share init, its body parsed. */
export interface VideoInit {
  auth: { user: SandboxUser; clientKey: string };
  kind: 'direct' | 'inbox';
  sourceInfo: z.infer<typeof sourceInfoSchema>;
  /** Direct posts only; null for an inbox share. */
  postInfo: z.infer<typeof postInfoSchema> | null;
}

/** Refusal, if any, of the post's privacy level: one creator_info offers, within the audit. */
function sendPrivacyRefusal(
  state: SandboxState,
  reply: FastifyReply,
  { auth, postInfo }: VideoInit,
): FastifyReply | null {
  if (postInfo === null) return null;
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
  return null;
}

/**
 * Shared by direct and inbox init once the body is parsed: the checks, then the post, answered
 * with its upload URL (FILE_UPLOAD, under `baseUrl`) or without (PULL_FROM_URL).
 */
export function startVideoInit(
  state: SandboxState,
  reply: FastifyReply,
  baseUrl: string,
  init: VideoInit,
): FastifyReply {
  const { auth, kind, sourceInfo, postInfo } = init;
  const blocked = cannotPostNow(state, auth.user, kind);
  if (blocked !== null) return sendEnvelopeError(reply, state, 403, blocked.code, blocked.message);
  const refused = sendPrivacyRefusal(state, reply, init);
  if (refused !== null) return refused;
  if (sourceInfo.source === 'PULL_FROM_URL') {
    return startPull(state, reply, init, sourceInfo.video_url);
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
    upload_url: `${baseUrl}/upload/?${query.toString()}`,
  });
}

/**
 * PULL_FROM_URL: only from a URL prefix the app verified (else url_ownership_unverified); the
 * answer carries no upload_url, and the sandbox downloads the video while the status says
 * PROCESSING_DOWNLOAD (pull-download.ts).
 */
function startPull(
  state: SandboxState,
  reply: FastifyReply,
  { auth, kind, postInfo }: VideoInit,
  videoUrl: string,
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
