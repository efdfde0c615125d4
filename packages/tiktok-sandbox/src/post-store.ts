import { createHash, type Hash } from 'node:crypto';
import { chunkRanges } from '@cadence/shared/tiktok-chunks';
import { newNineteenDigitId, newOpaqueId } from './ids.ts';
import type { ResolvedStateOptions } from './options.ts';
import { fail, ok, type Result } from './result.ts';

export type PublishStatus =
  | 'PROCESSING_UPLOAD'
  | 'PROCESSING_DOWNLOAD'
  | 'SEND_TO_USER_INBOX'
  | 'PUBLISH_COMPLETE'
  | 'FAILED';

/** post_info as accepted by /v2/post/publish/video/init/, defaults filled in. */
export interface DirectPostInfo {
  title: string;
  privacy_level: string;
  disable_comment: boolean;
  disable_duet: boolean;
  disable_stitch: boolean;
  video_cover_timestamp_ms: number | null;
  brand_content_toggle: boolean;
  brand_organic_toggle: boolean;
  is_aigc: boolean;
}

export interface SandboxPost {
  publishId: string;
  kind: 'direct' | 'inbox';
  clientKey: string;
  openId: string;
  postInfo: DirectPostInfo | null;
  videoSize: number;
  chunkSize: number;
  totalChunkCount: number;
  uploadId: string;
  uploadToken: string;
  uploadExpiresAt: number;
  receivedBytes: number;
  receivedChunks: number;
  /**
   * Running digest of the bytes accepted so far (null until the first chunk: most posts are
   * created in bursts and hashed later); replaced only when a chunk completes.
   */
  hash: Hash | null;
  sha256: string | null;
  /** First bytes of the file, to tell a video container from anything else. */
  header: Buffer;
  uploadCompletedAt: number | null;
  chunkInFlight: boolean;
  forcedFailReason: string | null;
  /** PULL_FROM_URL: the link TikTok downloads from (null for FILE_UPLOAD). */
  videoUrl: string | null;
  /** True while the sandbox downloads a PULL_FROM_URL video (status PROCESSING_DOWNLOAD). */
  pullInProgress: boolean;
  /** The next `remaining` status fetches answer this status instead (one TikTok may add later). */
  statusOverride: { status: string; remaining: number } | null;
  /** Revealed once published (and only for posts others can see). */
  postId: string;
  initAt: number;
}

export interface PostStatusView {
  status: PublishStatus;
  failReason: string | null;
  publicPostIds: string[];
  uploadedBytes: number;
  /** When it reached its final successful state, if it has. */
  completedAt: number | null;
}

export interface UploadError {
  status: 400 | 403 | 404 | 416;
  code: string;
  message: string;
}

const HEADER_BYTES = 16;
const MP4_BOXES = new Set(['ftyp', 'moov', 'mdat', 'free', 'skip', 'wide', 'pnot']);
const EBML_MAGIC = Buffer.from([0x1a, 0x45, 0xdf, 0xa3]);

/** MP4/MOV start with an ISO-BMFF box, WebM with the EBML magic; TikTok rejects anything else. */
export function looksLikeVideo(header: Buffer): boolean {
  if (header.subarray(0, 4).equals(EBML_MAGIC)) return true;
  return header.length >= 8 && MP4_BOXES.has(header.subarray(4, 8).toString('latin1'));
}

const CONTENT_RANGE = /^bytes (\d+)-(\d+)\/(\d+)$/;

/** Receives one chunk's bytes; nothing reaches the post until `commit` finds the length right. */
export class ChunkReceiver {
  private readonly hash: Hash;
  private received = 0;
  private header: Buffer;

  constructor(
    private readonly post: SandboxPost,
    private readonly expectedLength: number,
    private readonly now: () => number,
  ) {
    this.hash = post.hash?.copy() ?? createHash('sha256');
    this.header = post.header;
  }

  /** False when the body is longer than Content-Range said (the caller answers 400). */
  write(bytes: Buffer): boolean {
    this.received += bytes.length;
    if (this.received > this.expectedLength) return false;
    this.hash.update(bytes);
    if (this.header.length < HEADER_BYTES) {
      this.header = Buffer.concat([
        this.header,
        bytes.subarray(0, HEADER_BYTES - this.header.length),
      ]);
    }
    return true;
  }

  commit(): Result<'partial' | 'complete', UploadError> {
    this.post.chunkInFlight = false;
    if (this.received !== this.expectedLength) {
      return fail({
        status: 400,
        code: 'invalid_params',
        message: `Received ${this.received} bytes, Content-Range announced ${this.expectedLength}.`,
      });
    }
    const post = this.post;
    post.hash = this.hash;
    post.header = this.header;
    post.receivedBytes += this.received;
    post.receivedChunks += 1;
    if (post.receivedChunks < post.totalChunkCount) return ok('partial');
    post.sha256 = this.hash.digest('hex');
    post.uploadCompletedAt = this.now();
    return ok('complete');
  }

  abort(): void {
    this.post.chunkInFlight = false;
  }
}

export class PostStore {
  readonly posts = new Map<string, SandboxPost>();
  private readonly byUploadId = new Map<string, SandboxPost>();
  /**
   * Each creator's posts and each app's direct posts, in the order they were started: the daily
   * caps read the last day's from the end, instead of every post of every creator at each init
   * (a burst of 1,200 inits spent most of its time there, decision 039).
   */
  private readonly byCreator = new Map<string, SandboxPost[]>();
  private readonly directByApp = new Map<string, SandboxPost[]>();

  constructor(private readonly options: ResolvedStateOptions) {}

  create(input: {
    kind: 'direct' | 'inbox';
    clientKey: string;
    openId: string;
    postInfo: DirectPostInfo | null;
    videoSize: number;
    chunkSize: number;
    totalChunkCount: number;
    videoUrl: string | null;
  }): SandboxPost {
    const now = this.options.now();
    const prefix = input.kind === 'direct' ? 'v_pub_file~v2-1' : 'v_inbox_file~v2';
    // Every field spelled out: an object spread followed by this many properties costs V8 (Node
    // 20) about a microsecond per property, a tenth of a millisecond per init in a burst.
    const post: SandboxPost = {
      kind: input.kind,
      clientKey: input.clientKey,
      openId: input.openId,
      postInfo: input.postInfo,
      videoSize: input.videoSize,
      chunkSize: input.chunkSize,
      totalChunkCount: input.totalChunkCount,
      videoUrl: input.videoUrl,
      publishId: `${prefix}.${newNineteenDigitId()}`,
      uploadId: newOpaqueId(),
      uploadToken: newOpaqueId(),
      uploadExpiresAt: now + this.options.uploadUrlTtlSeconds * 1000,
      receivedBytes: 0,
      receivedChunks: 0,
      hash: null,
      sha256: null,
      header: Buffer.alloc(0),
      uploadCompletedAt: null,
      chunkInFlight: false,
      forcedFailReason: null,
      statusOverride: null,
      pullInProgress: input.videoUrl !== null,
      postId: newNineteenDigitId(),
      initAt: now,
    };
    this.posts.set(post.publishId, post);
    this.byUploadId.set(post.uploadId, post);
    appendTo(this.byCreator, post.openId, post);
    if (post.kind === 'direct') appendTo(this.directByApp, post.clientKey, post);
    return post;
  }

  find(publishId: string): SandboxPost | undefined {
    return this.posts.get(publishId);
  }

  /** Posts of one kind a creator started within the last 24 h (TikTok's daily caps). */
  countLastDay(openId: string, kind: 'direct' | 'inbox'): number {
    let count = 0;
    for (const post of this.lastDay(this.byCreator.get(openId))) {
      if (post.kind === kind) count++;
    }
    return count;
  }

  /** The creators who started a direct post through this app within the last 24 h. */
  postersLastDay(clientKey: string): Set<string> {
    const posters = new Set<string>();
    for (const post of this.lastDay(this.directByApp.get(clientKey))) posters.add(post.openId);
    return posters;
  }

  /**
   * The posts of a list (oldest first) started within the last 24 h, newest first: the list is in
   * the order of the sandbox's clock, which only moves forward (tests move it on, never back).
   */
  private *lastDay(posts: readonly SandboxPost[] | undefined): Generator<SandboxPost> {
    const since = this.options.now() - 24 * 60 * 60 * 1000;
    for (let index = (posts?.length ?? 0) - 1; index >= 0; index--) {
      const post = posts?.[index];
      if (post === undefined || post.initAt <= since) return;
      yield post;
    }
  }

  /** Status is derived from timestamps when asked, so no timer runs between requests. */
  statusOf(post: SandboxPost): PostStatusView {
    const base = { uploadedBytes: post.receivedBytes, publicPostIds: [], completedAt: null };
    if (post.forcedFailReason !== null) {
      return { ...base, status: 'FAILED', failReason: post.forcedFailReason };
    }
    if (post.pullInProgress) return { ...base, status: 'PROCESSING_DOWNLOAD', failReason: null };
    if (post.uploadCompletedAt === null) {
      return { ...base, status: 'PROCESSING_UPLOAD', failReason: null };
    }
    const completedAt = post.uploadCompletedAt + this.options.processingMs;
    if (this.options.now() < completedAt) {
      return { ...base, status: 'PROCESSING_UPLOAD', failReason: null };
    }
    if (!looksLikeVideo(post.header)) {
      return { ...base, status: 'FAILED', failReason: 'file_format_check_failed' };
    }
    if (post.kind === 'inbox') {
      return { ...base, status: 'SEND_TO_USER_INBOX', failReason: null, completedAt };
    }
    // TikTok only lists ids of posts others can see (a SELF_ONLY post completes without one),
    // and only once moderation has passed them: minutes to hours after PUBLISH_COMPLETE.
    const isPublic = post.postInfo?.privacy_level !== 'SELF_ONLY';
    const moderated = this.options.now() >= completedAt + this.options.postIdDelayMs;
    return {
      ...base,
      status: 'PUBLISH_COMPLETE',
      failReason: null,
      publicPostIds: isPublic && moderated ? [post.postId] : [],
      completedAt,
    };
  }

  /** Checks a PUT against the upload's progress before a single body byte is read. */
  beginChunk(input: {
    uploadId: string;
    uploadToken: string;
    contentRange: string | undefined;
    contentLength: string | undefined;
  }): Result<ChunkReceiver, UploadError> {
    const post = this.byUploadId.get(input.uploadId);
    if (post === undefined || post.uploadToken !== input.uploadToken) {
      return fail({ status: 404, code: 'upload_not_found', message: 'No such upload.' });
    }
    if (this.options.now() >= post.uploadExpiresAt) {
      return fail({ status: 403, code: 'upload_url_expired', message: 'upload_url has expired.' });
    }
    const badRequest = (message: string) =>
      fail<UploadError>({ status: 400, code: 'invalid_params', message });
    const range = CONTENT_RANGE.exec(input.contentRange ?? '');
    if (range === null) return badRequest('Content-Range must be "bytes first-last/total".');
    const [first, last, total] = [Number(range[1]), Number(range[2]), Number(range[3])];
    if (total !== post.videoSize) {
      return badRequest(`Content-Range total must be the video_size ${post.videoSize}.`);
    }
    if (last < first || last >= total) return badRequest('Content-Range is not a valid range.');
    const length = last - first + 1;
    if (input.contentLength === undefined || Number(input.contentLength) !== length) {
      return badRequest('Content-Length must equal the size of the Content-Range.');
    }
    const notSatisfiable = (message: string) =>
      fail<UploadError>({ status: 416, code: 'range_not_satisfiable', message });
    if (post.forcedFailReason !== null || post.receivedChunks >= post.totalChunkCount) {
      return notSatisfiable('This upload accepts no more chunks.');
    }
    if (post.chunkInFlight) return notSatisfiable('Another chunk of this upload is in progress.');
    if (first !== post.receivedBytes) {
      return notSatisfiable(`Expected the chunk starting at byte ${post.receivedBytes}.`);
    }
    const expected = chunkRanges(post.videoSize, post.chunkSize, post.totalChunkCount)[
      post.receivedChunks
    ];
    if (expected === undefined || expected.last !== last) {
      return badRequest(
        `Chunk ${post.receivedChunks + 1} must be bytes ${expected?.first}-${expected?.last}.`,
      );
    }
    post.chunkInFlight = true;
    return ok(new ChunkReceiver(post, length, this.options.now));
  }
}

function appendTo<TKey, TValue>(lists: Map<TKey, TValue[]>, key: TKey, value: TValue): void {
  const list = lists.get(key);
  if (list) list.push(value);
  else lists.set(key, [value]);
}
