import { privacyLevels } from '@cadence/shared/schemas/account';
import { chunkRanges, planChunks } from '@cadence/shared/tiktok-chunks';
import type {
  AttemptStatus,
  PlatformDriver,
  PostToPublish,
  PreparedStart,
  StartedAttempt,
} from '../platforms/driver.ts';
import type { TikTokClient } from './tiktok-client.ts';
import { TikTokApiError } from './tiktok-error.ts';
import type { RequestOptions } from './tiktok-http.ts';
import {
  exceedsDurationLimit,
  VIDEO_CONTENT_TYPES,
  type DirectPostInfo,
  type FileUploadPlan,
  type PostStatus,
  type VideoContentType,
} from './tiktok-publish-api.ts';
import {
  DAILY_CAP_CODE,
  failReasonFromTikTok,
  reactToTikTokError,
} from './tiktok-publish-errors.ts';

/** TikTok: 6 video inits per minute per access token, counted over a sliding 60 s window. */
export const INITS_PER_WINDOW = 6;
/** TikTok's own window (its rate-limit page: a sliding one-minute window). */
export const TIKTOK_INIT_WINDOW_MS = 60_000;
/** TikTok's upload_url lives one hour; stop using it a little earlier. */
const UPLOAD_URL_TTL_MS = 55 * 60 * 1000;

function asVideoContentType(value: string): VideoContentType {
  return VIDEO_CONTENT_TYPES.find((type) => type === value) ?? 'video/mp4';
}

/** A status fetch's answer in the core's words. */
function attemptStatusOf(status: PostStatus): AttemptStatus {
  const reported = status.reportedStatus;
  switch (status.status) {
    case 'PROCESSING_UPLOAD':
      return { reported, state: 'receiving', receivedBytes: status.uploadedBytes };
    case 'PROCESSING_DOWNLOAD':
      return { reported, state: 'processing' };
    case 'PUBLISH_COMPLETE':
      return { reported, state: 'published', publicId: status.publicPostIds[0] ?? null };
    case 'SEND_TO_USER_INBOX':
      return { reported, state: 'in_inbox' };
    case 'FAILED':
      // TikTok's fail_reason, or 'publish_failed' when it gives none.
      return {
        reported,
        state: 'failed',
        reason:
          status.failReason === null ? 'publish_failed' : failReasonFromTikTok(status.failReason),
        platformReason: status.failReason,
      };
    case 'UNKNOWN':
      return { reported, state: 'unknown' };
  }
}

/** The direct post's post_info from creator_info's answer, or why the post cannot go. */
async function checkCreator(
  client: TikTokClient,
  token: string,
  post: PostToPublish,
  lap: (phase: string) => void,
): Promise<
  { postInfo: DirectPostInfo } | { refuse: 'privacy_level_option_mismatch' | 'video_too_long' }
> {
  const creator = await client.queryCreatorInfo(token);
  lap('creatorInfo');
  if (post.privacy_level === null || !creator.privacyLevelOptions.includes(post.privacy_level)) {
    return { refuse: 'privacy_level_option_mismatch' };
  }
  if (exceedsDurationLimit(post.duration_seconds, creator.maxVideoPostDurationSec)) {
    return { refuse: 'video_too_long' };
  }
  const privacyLevel = privacyLevels.find((level) => level === post.privacy_level);
  if (privacyLevel === undefined) return { refuse: 'privacy_level_option_mismatch' };
  const postInfo: DirectPostInfo = {
    title: post.title,
    privacyLevel,
    disableComment: !post.allow_comment || creator.commentDisabled,
    disableDuet: !post.allow_duet || creator.duetDisabled,
    disableStitch: !post.allow_stitch || creator.stitchDisabled,
    brandContentToggle: post.commercial_content.enabled && post.commercial_content.brandedContent,
    brandOrganicToggle: post.commercial_content.enabled && post.commercial_content.yourBrand,
    isAigc: post.is_aigc,
    ...(post.cover_timestamp_ms !== null && { videoCoverTimestampMs: post.cover_timestamp_ms }),
  };
  return { postInfo };
}

/** The init's answer as the core records it: publish_id, and the upload_url unless TikTok pulls. */
function started(
  result: { publishId: string; uploadUrl?: string },
  plan: FileUploadPlan,
): StartedAttempt {
  return {
    attemptId: result.publishId,
    upload:
      result.uploadUrl === undefined
        ? null
        : {
            url: result.uploadUrl,
            expiresAt: new Date(Date.now() + UPLOAD_URL_TTL_MS),
            chunkSize: plan.chunkSize,
            totalChunkCount: plan.totalChunkCount,
          },
  };
}

/**
 * TikTok as the publishing core sees it: creator_info before a direct post, the video init
 * (direct or inbox, FILE_UPLOAD or PULL_FROM_URL), chunk PUTs to the upload_url, status fetches,
 * and TikTok's errors in the core's fail reasons. `initWindowMs`: TikTok's init window (default
 * TIKTOK_INIT_WINDOW_MS; shorter against a sandbox counting over a shorter one).
 */
export function createTikTokDriver(
  client: TikTokClient,
  options: { initWindowMs?: number } = {},
): PlatformDriver {
  return {
    limits: {
      startWindow: {
        starts: INITS_PER_WINDOW,
        windowMs: options.initWindowMs ?? TIKTOK_INIT_WINDOW_MS,
      },
      dailyCapReason: DAILY_CAP_CODE,
    },

    async prepareStart(token, post, { mediaUrl, lap }): Promise<PreparedStart> {
      const plan = { videoSize: post.size_bytes, ...planChunks(post.size_bytes) };
      // TikTok pulls the video from a signed link (PULL_FROM_URL), or the worker uploads chunks.
      const pull = mediaUrl === null ? null : { videoUrl: mediaUrl };
      const sendWith =
        (
          init: (
            token: string,
            options: RequestOptions,
          ) => Promise<{ publishId: string; uploadUrl?: string }>,
        ) =>
        async (sendToken: string, options: RequestOptions) =>
          started(await init(sendToken, options), plan);
      if (post.delivery === 'inbox') {
        // The creator chooses caption, privacy and interactions in the TikTok app.
        return {
          send: sendWith((sendToken, options) =>
            pull
              ? client.initInboxPostFromUrl(sendToken, pull, options)
              : client.initInboxPost(sendToken, plan, options),
          ),
        };
      }
      // creator_info and the init with one token read: TikTok's answer says how the post may go.
      const checked = await checkCreator(client, token, post, lap);
      if ('refuse' in checked) return checked;
      const { postInfo } = checked;
      return {
        send: sendWith((sendToken, options) =>
          pull
            ? client.initDirectPostFromUrl(sendToken, { ...pull, postInfo }, options)
            : client.initDirectPost(sendToken, { ...plan, postInfo }, options),
        ),
      };
    },

    chunks: (size, chunkSize, totalChunkCount) => chunkRanges(size, chunkSize, totalChunkCount),

    async sendChunk(url, chunk) {
      await client.uploadChunk(url, {
        body: chunk.body,
        first: chunk.first,
        last: chunk.last,
        total: chunk.total,
        contentType: asVideoContentType(chunk.contentType),
        ...(chunk.signal && { signal: chunk.signal }),
      });
    },

    async fetchStatus(token, attemptId) {
      return attemptStatusOf(await client.fetchPostStatus(token, attemptId));
    },

    // TikTok lets the public id out once moderation is done, minutes to hours after
    // PUBLISH_COMPLETE; posts only the creator sees never get one.
    awaitsPublicId: (post) => post.privacy_level !== 'SELF_ONLY',

    reactToError: reactToTikTokError,

    // No answer (timeout, connection lost): the request may still reach TikTok later.
    wasAnswered: (error) => error instanceof TikTokApiError && error.httpStatus !== null,
  };
}
