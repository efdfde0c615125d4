import type { Readable } from 'node:stream';
import { Agent, request, type Dispatcher } from 'undici';
import type { PrivacyLevel } from '@cadence/shared/schemas/account';
import type { z } from 'zod';
import { TikTokApiError } from './tiktok-error.ts';
import {
  creatorInfoDataSchema,
  envelopeSchema,
  initDataSchema,
  oauthErrorSchema,
  parseJsonKeepingBigIntegers,
  pullInitDataSchema,
  statusDataSchema,
  tokenResponseSchema,
  userInfoDataSchema,
  videoListDataSchema,
  videoQueryDataSchema,
  publishStatusSchema,
  type userSchema,
  type videoSchema,
} from './tiktok-schemas.ts';

import { createPkcePair, type PkcePair } from './pkce.ts';

export { createPkcePair, type PkcePair };

export type TikTokScope =
  | 'user.info.basic'
  | 'user.info.profile'
  | 'user.info.stats'
  | 'video.list'
  | 'video.upload'
  | 'video.publish';

export type UserInfoField = keyof z.infer<typeof userSchema>;
export type VideoField = keyof z.infer<typeof videoSchema>;
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

export interface TikTokClientOptions {
  clientKey: string;
  clientSecret: string;
  /** https://www.tiktok.com, or the sandbox's origin + prefix. */
  authBase: string;
  /** https://open.tiktokapis.com, or the sandbox's origin + prefix. */
  apiBase: string;
  /**
   * Where requests go (undici's Dispatcher): by default an Agent of the client's own, keeping its
   * connections to TikTok open between calls. Tests pass undici's MockAgent for answers the
   * sandbox cannot give.
   */
  dispatcher?: Dispatcher;
  /** Per API call, body included (default 30 s). */
  timeoutMs?: number;
  /** Per uploaded chunk (default 10 min: a 64 MB chunk on a slow uplink). */
  uploadTimeoutMs?: number;
}

export interface RequestOptions {
  /** Aborting rejects with the signal's reason, not a TikTokApiError. */
  signal?: AbortSignal;
  /**
   * Called once, as soon as TikTok's answer starts to arrive (its status line and headers), before
   * its body is read and checked: the earliest moment known to be after TikTok handled the request
   * (the publisher stamps its init slot with it, decision 039).
   */
  onAnswer?: () => void;
}

export interface TikTokTokenSet {
  accessToken: string;
  /** Seconds; store `now + expiresIn * 1000`, TikTok's lifetimes vary. */
  expiresIn: number;
  openId: string;
  refreshExpiresIn: number;
  /** Always store it: TikTok rotates refresh tokens and the previous one stops working. */
  refreshToken: string;
  /** Granted scopes: the person may have declined some of those requested. */
  scopes: string[];
  /** "Bearer" when TikTok says; null when it does not (not every answer carries it). */
  tokenType: string | null;
}

export interface TikTokUser {
  openId?: string;
  unionId?: string;
  avatarUrl?: string;
  avatarUrl100?: string;
  avatarLargeUrl?: string;
  displayName?: string;
  bioDescription?: string;
  profileDeepLink?: string;
  isVerified?: boolean;
  username?: string;
  followerCount?: number;
  followingCount?: number;
  likesCount?: number;
  videoCount?: number;
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

export interface TikTokVideo {
  id?: string;
  createTime?: number;
  coverImageUrl?: string;
  shareUrl?: string;
  videoDescription?: string;
  duration?: number;
  height?: number;
  width?: number;
  title?: string;
  embedHtml?: string;
  embedLink?: string;
  likeCount?: number;
  commentCount?: number;
  shareCount?: number;
  viewCount?: number;
}

export interface VideoPage {
  videos: TikTokVideo[];
  /** Pass back as `cursor` for the next page. */
  cursor: number;
  hasMore: boolean;
}

export interface TikTokClient {
  /** Same as the standalone createPkcePair(); here for convenience. */
  createPkcePair(): PkcePair;
  buildAuthorizeUrl(input: {
    redirectUri: string;
    state: string;
    codeChallenge: string;
    scopes: readonly TikTokScope[];
    disableAutoAuth?: boolean;
    /**
     * The username of the card being connected, as `username_hint`: the sandbox pre-fills its
     * consent page with it; TikTok documents no such parameter and, as OAuth 2.0 requires of an
     * authorization server (RFC 6749 §3.1), ignores it.
     */
    usernameHint?: string;
  }): string;
  exchangeCode(
    input: { code: string; redirectUri: string; codeVerifier: string },
    options?: RequestOptions,
  ): Promise<TikTokTokenSet>;
  refreshToken(refreshToken: string, options?: RequestOptions): Promise<TikTokTokenSet>;
  revokeToken(token: string, options?: RequestOptions): Promise<void>;
  getUserInfo(
    accessToken: string,
    fields: readonly UserInfoField[],
    options?: RequestOptions,
  ): Promise<TikTokUser>;
  queryCreatorInfo(accessToken: string, options?: RequestOptions): Promise<CreatorInfo>;
  initDirectPost(
    accessToken: string,
    input: FileUploadPlan & { postInfo: DirectPostInfo },
    options?: RequestOptions,
  ): Promise<InitResult>;
  initInboxPost(
    accessToken: string,
    input: FileUploadPlan,
    options?: RequestOptions,
  ): Promise<InitResult>;
  /** Direct post by PULL_FROM_URL: TikTok downloads the video; there is no upload_url. */
  initDirectPostFromUrl(
    accessToken: string,
    input: PullSource & { postInfo: DirectPostInfo },
    options?: RequestOptions,
  ): Promise<{ publishId: string }>;
  /** Inbox draft by PULL_FROM_URL. */
  initInboxPostFromUrl(
    accessToken: string,
    input: PullSource,
    options?: RequestOptions,
  ): Promise<{ publishId: string }>;
  uploadChunk(uploadUrl: string, input: UploadChunkInput): Promise<'partial' | 'complete'>;
  fetchPostStatus(
    accessToken: string,
    publishId: string,
    options?: RequestOptions,
  ): Promise<PostStatus>;
  listVideos(
    accessToken: string,
    input: { fields: readonly VideoField[]; cursor?: number; maxCount?: number },
    options?: RequestOptions,
  ): Promise<VideoPage>;
  /** The user's own public videos among `videoIds` (at most 20; others are left out). */
  queryVideos(
    accessToken: string,
    input: { fields: readonly VideoField[]; videoIds: readonly string[] },
    options?: RequestOptions,
  ): Promise<TikTokVideo[]>;
}

/** A request as `send` takes it: what undici's `request` needs besides the URL and the signal. */
interface Outgoing {
  method: 'GET' | 'POST' | 'PUT';
  headers: Record<string, string>;
  body?: string | Buffer | Readable;
}

interface RawResponse {
  status: number;
  /** Parsed JSON, or undefined when the body was empty or not JSON. */
  json: unknown;
}

function withoutTrailingSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

function toTokenSet(token: z.infer<typeof tokenResponseSchema>): TikTokTokenSet {
  return {
    accessToken: token.access_token,
    expiresIn: token.expires_in,
    openId: token.open_id,
    refreshExpiresIn: token.refresh_expires_in,
    refreshToken: token.refresh_token,
    scopes: token.scope
      .split(',')
      .map((scope) => scope.trim())
      .filter((scope) => scope.length > 0),
    tokenType: token.token_type ?? null,
  };
}

function toUser(user: z.infer<typeof userSchema>): TikTokUser {
  return {
    openId: user.open_id,
    unionId: user.union_id,
    avatarUrl: user.avatar_url,
    avatarUrl100: user.avatar_url_100,
    avatarLargeUrl: user.avatar_large_url,
    displayName: user.display_name,
    bioDescription: user.bio_description,
    profileDeepLink: user.profile_deep_link,
    isVerified: user.is_verified,
    username: user.username,
    followerCount: user.follower_count,
    followingCount: user.following_count,
    likesCount: user.likes_count,
    videoCount: user.video_count,
  };
}

function toVideo(video: z.infer<typeof videoSchema>): TikTokVideo {
  return {
    id: video.id,
    createTime: video.create_time,
    coverImageUrl: video.cover_image_url,
    shareUrl: video.share_url,
    videoDescription: video.video_description,
    duration: video.duration,
    height: video.height,
    width: video.width,
    title: video.title,
    embedHtml: video.embed_html,
    embedLink: video.embed_link,
    likeCount: video.like_count,
    commentCount: video.comment_count,
    shareCount: video.share_count,
    viewCount: video.view_count,
  };
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

/**
 * Connections this client keeps to one TikTok origin (undici's `connections`, per origin): calls
 * beyond them wait for one to be free, and each is kept open for the next calls. At a due instant
 * a worker sends hundreds of video inits at once; each opened a connection of its own (a TLS
 * handshake at TikTok), and the worker set them all up before writing any request, then read the
 * answers late, which held the inits' pacing slots longer (decision 048). A call's
 * timeout runs while it waits: at TikTok's usual latency the wait is a second or two, far short
 * of its 30 s.
 */
export const TIKTOK_CONNECTIONS_PER_ORIGIN = 128;

/** The typed TikTok v2 client: Login Kit, user info, Content Posting and the Display API. */
export function createTikTokClient(options: TikTokClientOptions): TikTokClient {
  const dispatcher =
    options.dispatcher ?? new Agent({ connections: TIKTOK_CONNECTIONS_PER_ORIGIN });
  const authBase = withoutTrailingSlash(options.authBase);
  const apiBase = withoutTrailingSlash(options.apiBase);
  const timeoutMs = options.timeoutMs ?? 30_000;
  const uploadTimeoutMs = options.uploadTimeoutMs ?? 600_000;

  /** Sends a request and always reads the body, whatever the status. */
  async function send(
    operation: string,
    url: string,
    outgoing: Outgoing,
    limitMs: number,
    callerSignal: AbortSignal | undefined,
    onAnswer?: () => void,
  ): Promise<RawResponse> {
    const timeout = AbortSignal.timeout(limitMs);
    const signal = callerSignal === undefined ? timeout : AbortSignal.any([timeout, callerSignal]);
    let status: number;
    let text: string;
    try {
      const response = await request(url, { ...outgoing, signal, dispatcher });
      onAnswer?.();
      status = response.statusCode;
      text = await response.body.text();
    } catch (error) {
      if (callerSignal?.aborted === true) throw callerSignal.reason;
      const code = timeout.aborted ? 'timeout' : 'network_error';
      throw new TikTokApiError({ operation, code, httpStatus: null, cause: error });
    }
    if (text.trim() === '') return { status, json: undefined };
    try {
      return { status, json: parseJsonKeepingBigIntegers(text) };
    } catch {
      return { status, json: undefined };
    }
  }

  /** Throws TikTok's error if the body carries one, in either of its two shapes. */
  function throwIfErrorBody(operation: string, response: RawResponse): void {
    const oauthError = oauthErrorSchema.safeParse(response.json);
    if (oauthError.success) {
      throw new TikTokApiError({
        operation,
        code: oauthError.data.error,
        httpStatus: response.status,
        logId: oauthError.data.log_id,
        description: oauthError.data.error_description,
      });
    }
    const envelope = envelopeSchema.safeParse(response.json);
    if (envelope.success && envelope.data.error.code !== 'ok') {
      throw new TikTokApiError({
        operation,
        code: envelope.data.error.code,
        httpStatus: response.status,
        logId: envelope.data.error.log_id,
        description: envelope.data.error.message,
      });
    }
  }

  function invalidResponse(operation: string, response: RawResponse, description: string) {
    return new TikTokApiError({
      operation,
      code: 'invalid_response',
      httpStatus: response.status,
      description,
    });
  }

  async function oauthCall(
    operation: string,
    path: string,
    form: Record<string, string>,
    signal: AbortSignal | undefined,
  ): Promise<RawResponse> {
    const response = await send(
      operation,
      `${apiBase}${path}`,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'cache-control': 'no-cache',
        },
        body: new URLSearchParams(form).toString(),
      },
      timeoutMs,
      signal,
    );
    // TikTok sometimes reports token errors with HTTP 200: the body decides.
    throwIfErrorBody(operation, response);
    if (response.status < 200 || response.status >= 300) {
      throw invalidResponse(operation, response, 'Unexpected HTTP status without an error body.');
    }
    return response;
  }

  async function tokenCall(
    operation: string,
    form: Record<string, string>,
    signal: AbortSignal | undefined,
  ): Promise<TikTokTokenSet> {
    const response = await oauthCall(operation, '/v2/oauth/token/', form, signal);
    const token = tokenResponseSchema.safeParse(response.json);
    if (!token.success) {
      throw invalidResponse(operation, response, 'The token response is missing fields.');
    }
    return toTokenSet(token.data);
  }

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
    return apiCall(
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

  async function apiCall<TSchema extends z.ZodType>(
    operation: string,
    request: {
      method: 'GET' | 'POST';
      path: string;
      accessToken: string;
      query?: Record<string, string>;
      body?: unknown;
    },
    dataSchema: TSchema,
    requestOptions: RequestOptions | undefined,
  ): Promise<z.output<TSchema>> {
    const query =
      request.query === undefined ? '' : `?${new URLSearchParams(request.query).toString()}`;
    const headers: Record<string, string> = { authorization: `Bearer ${request.accessToken}` };
    let body: string | undefined;
    if (request.method === 'POST') {
      headers['content-type'] = 'application/json; charset=UTF-8';
      if (request.body !== undefined) body = JSON.stringify(request.body);
    }
    const response = await send(
      operation,
      `${apiBase}${request.path}${query}`,
      { method: request.method, headers, body },
      timeoutMs,
      requestOptions?.signal,
      requestOptions?.onAnswer,
    );
    // "Cannot post now" arrives with HTTP 200 and only error.code says so.
    throwIfErrorBody(operation, response);
    if (response.status < 200 || response.status >= 300) {
      throw invalidResponse(operation, response, 'Unexpected HTTP status without an error body.');
    }
    const envelope = envelopeSchema.safeParse(response.json);
    const data = dataSchema.safeParse(envelope.success ? envelope.data.data : undefined);
    if (!envelope.success || !data.success) {
      throw invalidResponse(operation, response, 'The response does not match the v2 contract.');
    }
    return data.data;
  }

  return {
    createPkcePair,

    buildAuthorizeUrl(input) {
      const query = new URLSearchParams({
        client_key: options.clientKey,
        scope: input.scopes.join(','),
        response_type: 'code',
        redirect_uri: input.redirectUri,
        state: input.state,
        code_challenge: input.codeChallenge,
        code_challenge_method: 'S256',
      });
      if (input.disableAutoAuth === true) query.set('disable_auto_auth', '1');
      if (input.usernameHint !== undefined) query.set('username_hint', input.usernameHint);
      return `${authBase}/v2/auth/authorize/?${query.toString()}`;
    },

    exchangeCode(input, requestOptions) {
      return tokenCall(
        'exchange_code',
        {
          client_key: options.clientKey,
          client_secret: options.clientSecret,
          code: input.code,
          grant_type: 'authorization_code',
          redirect_uri: input.redirectUri,
          code_verifier: input.codeVerifier,
        },
        requestOptions?.signal,
      );
    },

    refreshToken(refreshToken, requestOptions) {
      return tokenCall(
        'refresh_token',
        {
          client_key: options.clientKey,
          client_secret: options.clientSecret,
          grant_type: 'refresh_token',
          refresh_token: refreshToken,
        },
        requestOptions?.signal,
      );
    },

    async revokeToken(token, requestOptions) {
      await oauthCall(
        'revoke_token',
        '/v2/oauth/revoke/',
        { client_key: options.clientKey, client_secret: options.clientSecret, token },
        requestOptions?.signal,
      );
    },

    async getUserInfo(accessToken, fields, requestOptions) {
      const data = await apiCall(
        'user_info',
        { method: 'GET', path: '/v2/user/info/', accessToken, query: { fields: fields.join(',') } },
        userInfoDataSchema,
        requestOptions,
      );
      return toUser(data.user);
    },

    async queryCreatorInfo(accessToken, requestOptions) {
      const data = await apiCall(
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
    },

    async initDirectPost(accessToken, input, requestOptions) {
      const data = await initCall('direct', accessToken, input, initDataSchema, requestOptions);
      return { publishId: data.publish_id, uploadUrl: data.upload_url };
    },

    async initDirectPostFromUrl(accessToken, input, requestOptions) {
      const data = await initCall('direct', accessToken, input, pullInitDataSchema, requestOptions);
      return { publishId: data.publish_id };
    },

    async initInboxPostFromUrl(accessToken, input, requestOptions) {
      const data = await initCall('inbox', accessToken, input, pullInitDataSchema, requestOptions);
      return { publishId: data.publish_id };
    },

    async initInboxPost(accessToken, input, requestOptions) {
      const data = await initCall('inbox', accessToken, input, initDataSchema, requestOptions);
      return { publishId: data.publish_id, uploadUrl: data.upload_url };
    },

    async uploadChunk(uploadUrl, input) {
      const length = input.last - input.first + 1;
      if (Buffer.isBuffer(input.body) && input.body.length !== length) {
        throw new RangeError(`chunk body has ${input.body.length} bytes, range needs ${length}`);
      }
      const response = await send(
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
        uploadTimeoutMs,
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
    },

    async fetchPostStatus(accessToken, publishId, requestOptions) {
      const data = await apiCall(
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
    },

    async listVideos(accessToken, input, requestOptions) {
      const body: Record<string, number> = { max_count: input.maxCount ?? 20 };
      if (input.cursor !== undefined) body['cursor'] = input.cursor;
      const data = await apiCall(
        'video_list',
        {
          method: 'POST',
          path: '/v2/video/list/',
          accessToken,
          query: { fields: input.fields.join(',') },
          body,
        },
        videoListDataSchema,
        requestOptions,
      );
      return { videos: data.videos.map(toVideo), cursor: data.cursor, hasMore: data.has_more };
    },

    async queryVideos(accessToken, input, requestOptions) {
      if (input.videoIds.length === 0 || input.videoIds.length > 20) {
        throw new RangeError(`video/query takes 1 to 20 ids, not ${input.videoIds.length}`);
      }
      const data = await apiCall(
        'video_query',
        {
          method: 'POST',
          path: '/v2/video/query/',
          accessToken,
          query: { fields: input.fields.join(',') },
          body: { filters: { video_ids: input.videoIds } },
        },
        videoQueryDataSchema,
        requestOptions,
      );
      return data.videos.map(toVideo);
    },
  };
}
