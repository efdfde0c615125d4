import type { Readable } from 'node:stream';
import type { PrivacyLevel } from '@cadence/shared/schemas/account';
import type { z } from 'zod';
import { TikTokApiError } from './tiktok-error.ts';
import { throwIfErrorBody, type RequestOptions, type TikTokHttp } from './tiktok-http.ts';
import {
  creatorInfoDataSchema,
  initDataSchema,
  publishStatusSchema,
  pullInitDataSchema,
  statusDataSchema,
} from './tiktok-schemas.ts';

/** TikTok's documented statuses, and UNKNOWN for any other value (see `PostStatus.reportedStatus`). */
export type PublishStatus = z.infer<typeof publishStatusSchema> | 'UNKNOWN';
export type { PrivacyLevel };
/** The video containers TikTok's upload accepts (and Cadence stores). */
export const VIDEO_CONTENT_TYPES = ['video/mp4', 'video/quicktime', 'video/webm'] as const;
export type VideoContentType = (typeof VIDEO_CONTENT_TYPES)[number];

/** A limit of 0 (or none) would refuse every video: TikTok means it has none to give. */
function usableDurationLimit(seconds: number | undefined): number | null {
  return seconds !== undefined && Number.isFinite(seconds) && seconds > 0 ? seconds : null;
}

/** True when a video is longer than the creator's limit (never when there is no usable limit). */
export function exceedsDurationLimit(durationSeconds: number, limit: number | null): boolean {
  return limit !== null && durationSeconds > limit;
}

export interface CreatorInfo {
  creatorAvatarUrl: string | null;
  creatorUsername: string;
  creatorNickname: string;
  /** Offer exactly these, with no default (TikTok's UX guidelines). */
  privacyLevelOptions: string[];
  commentDisabled: boolean;
  duetDisabled: boolean;
  stitchDisabled: boolean;
  /** Longest video the creator may post, in seconds; null when TikTok gave no usable limit. */
  maxVideoPostDurationSec: number | null;
}

export interface DirectPostInfo {
  title?: string;
  privacyLevel: PrivacyLevel;
  disableComment?: boolean;
  disableDuet?: boolean;
  disableStitch?: boolean;
  videoCoverTimestampMs?: number;
  brandContentToggle?: boolean;
  brandOrganicToggle?: boolean;
  isAigc?: boolean;
}

export interface FileUploadPlan {
  videoSize: number;
  chunkSize: number;
  totalChunkCount: number;
}

/** PULL_FROM_URL: TikTok downloads the video from this link (on a prefix the app verified). */
export interface PullSource {
  videoUrl: string;
}

export interface InitResult {
  /** Record it before uploading: a restarted worker resumes from it instead of posting twice. */
  publishId: string;
  /** Valid for one hour. */
  uploadUrl: string;
}

export interface UploadChunkInput {
  /** Exactly the bytes `first..last`; a stream is sent as is, never buffered. */
  body: Buffer | Readable;
  first: number;
  /** Inclusive. */
  last: number;
  total: number;
  contentType: VideoContentType;
  signal?: AbortSignal;
}

export interface PostStatus {
  status: PublishStatus;
  /** The status as TikTok wrote it (differs from `status` only when that is UNKNOWN). */
  reportedStatus: string;
  failReason: string | null;
  /** 19-digit ids, as strings; empty until published, and for posts only the creator can see. */
  publicPostIds: string[];
  uploadedBytes: number | null;
}

function postInfoBody(info: DirectPostInfo): Record<string, unknown> {
  const body: Record<string, unknown> = {
    title: info.title ?? '',
    privacy_level: info.privacyLevel,
    disable_comment: info.disableComment ?? false,
    disable_duet: info.disableDuet ?? false,
    disable_stitch: info.disableStitch ?? false,
    brand_content_toggle: info.brandContentToggle ?? false,
    brand_organic_toggle: info.brandOrganicToggle ?? false,
  };
  if (info.videoCoverTimestampMs !== undefined) {
    body['video_cover_timestamp_ms'] = info.videoCoverTimestampMs;
  }
  if (info.isAigc !== undefined) body['is_aigc'] = info.isAigc;
  return body;
}

function sourceInfoBody(source: FileUploadPlan | PullSource): Record<string, unknown> {
  if ('videoUrl' in source) return { source: 'PULL_FROM_URL', video_url: source.videoUrl };
  return {
    source: 'FILE_UPLOAD',
    video_size: source.videoSize,
    chunk_size: source.chunkSize,
    total_chunk_count: source.totalChunkCount,
  };
}

/** What the creator may post now: privacy options, interactions, the longest video. */
export async function queryCreatorInfo(
  http: TikTokHttp,
  accessToken: string,
  requestOptions?: RequestOptions,
): Promise<CreatorInfo> {
  const data = await http.apiCall(
    'creator_info',
    { method: 'POST', path: '/v2/post/publish/creator_info/query/', accessToken },
    creatorInfoDataSchema,
    requestOptions,
  );
  return {
    creatorAvatarUrl: data.creator_avatar_url ?? null,
    creatorUsername: data.creator_username,
    creatorNickname: data.creator_nickname,
    privacyLevelOptions: data.privacy_level_options,
    commentDisabled: data.comment_disabled,
    duetDisabled: data.duet_disabled,
    stitchDisabled: data.stitch_disabled,
    maxVideoPostDurationSec: usableDurationLimit(data.max_video_post_duration_sec),
  };
}

/** Where a publish stands at TikTok (status/fetch). */
export async function fetchPostStatus(
  http: TikTokHttp,
  accessToken: string,
  publishId: string,
  requestOptions?: RequestOptions,
): Promise<PostStatus> {
  const data = await http.apiCall(
    'status_fetch',
    {
      method: 'POST',
      path: '/v2/post/publish/status/fetch/',
      accessToken,
      body: { publish_id: publishId },
    },
    statusDataSchema,
    requestOptions,
  );
  const known = publishStatusSchema.safeParse(data.status);
  return {
    status: known.success ? known.data : 'UNKNOWN',
    reportedStatus: data.status,
    failReason: data.fail_reason ?? null,
    publicPostIds: data.publicaly_available_post_id ?? [],
    uploadedBytes: data.uploaded_bytes ?? null,
  };
}

/** Content Posting: creator_info, the video inits (direct or inbox, file or pull) and the status. */
export function createTikTokPublishApi(http: TikTokHttp) {
  /**
   * A video init: direct post (post_info + source_info) or inbox draft (source_info only), by
   * FILE_UPLOAD or PULL_FROM_URL.
   */
  function initCall<TSchema extends z.ZodType>(
    kind: 'direct' | 'inbox',
    accessToken: string,
    input: (FileUploadPlan | PullSource) & { postInfo?: DirectPostInfo },
    dataSchema: TSchema,
    requestOptions: RequestOptions | undefined,
  ): Promise<z.output<TSchema>> {
    const sourceInfo = sourceInfoBody(input);
    return http.apiCall(
      kind === 'direct' ? 'video_init' : 'inbox_init',
      {
        method: 'POST',
        path:
          kind === 'direct' ? '/v2/post/publish/video/init/' : '/v2/post/publish/inbox/video/init/',
        accessToken,
        body:
          kind === 'direct' && input.postInfo !== undefined
            ? { post_info: postInfoBody(input.postInfo), source_info: sourceInfo }
            : { source_info: sourceInfo },
      },
      dataSchema,
      requestOptions,
    );
  }

  return {
    queryCreatorInfo: (accessToken: string, requestOptions?: RequestOptions) =>
      queryCreatorInfo(http, accessToken, requestOptions),

    async initDirectPost(
      accessToken: string,
      input: FileUploadPlan & { postInfo: DirectPostInfo },
      requestOptions?: RequestOptions,
    ): Promise<InitResult> {
      const data = await initCall('direct', accessToken, input, initDataSchema, requestOptions);
      return { publishId: data.publish_id, uploadUrl: data.upload_url };
    },

    /** Direct post by PULL_FROM_URL: TikTok downloads the video; there is no upload_url. */
    async initDirectPostFromUrl(
      accessToken: string,
      input: PullSource & { postInfo: DirectPostInfo },
      requestOptions?: RequestOptions,
    ): Promise<{ publishId: string }> {
      const data = await initCall('direct', accessToken, input, pullInitDataSchema, requestOptions);
      return { publishId: data.publish_id };
    },

    /** Inbox draft by PULL_FROM_URL. */
    async initInboxPostFromUrl(
      accessToken: string,
      input: PullSource,
      requestOptions?: RequestOptions,
    ): Promise<{ publishId: string }> {
      const data = await initCall('inbox', accessToken, input, pullInitDataSchema, requestOptions);
      return { publishId: data.publish_id };
    },

    async initInboxPost(
      accessToken: string,
      input: FileUploadPlan,
      requestOptions?: RequestOptions,
    ): Promise<InitResult> {
      const data = await initCall('inbox', accessToken, input, initDataSchema, requestOptions);
      return { publishId: data.publish_id, uploadUrl: data.upload_url };
    },

    fetchPostStatus: (accessToken: string, publishId: string, requestOptions?: RequestOptions) =>
      fetchPostStatus(http, accessToken, publishId, requestOptions),
  };
}

/** The chunk PUT to an init's upload_url (FILE_UPLOAD). */
export async function uploadChunk(
  http: TikTokHttp,
  uploadUrl: string,
  input: UploadChunkInput,
): Promise<'partial' | 'complete'> {
  const length = input.last - input.first + 1;
  if (Buffer.isBuffer(input.body) && input.body.length !== length) {
    throw new RangeError(`chunk body has ${input.body.length} bytes, range needs ${length}`);
  }
  const response = await http.send(
    'upload_chunk',
    uploadUrl,
    {
      method: 'PUT',
      headers: {
        'content-type': input.contentType,
        'content-length': String(length),
        'content-range': `bytes ${input.first}-${input.last}/${input.total}`,
      },
      body: input.body,
    },
    http.uploadTimeoutMs,
    input.signal,
  );
  if (response.status === 206) return 'partial';
  if (response.status === 201) return 'complete';
  if (response.status >= 200 && response.status < 300) {
    return input.last === input.total - 1 ? 'complete' : 'partial';
  }
  throwIfErrorBody('upload_chunk', response);
  // Upload errors may come without a body: name them after the status (416 = out of order).
  throw new TikTokApiError({
    operation: 'upload_chunk',
    code: `upload_http_${response.status}`,
    httpStatus: response.status,
  });
}
