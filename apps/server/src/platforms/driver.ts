// The contract between the publishing core (modules/publishing) and one platform. The core owns
// everything every platform shares: the post's state machine, the lease, the per-account rate
// ledger, the wake-ups, the daily cap and the outcomes. A driver owns what only its platform
// knows: what to check before publishing, how a publish starts, how the media gets there, what
// its statuses and errors mean, and its limits. docs/decisions/056-platform-driver.md maps TikTok,
// YouTube's resumable upload and Instagram's container → publish flow onto it.
import type { Readable } from 'node:stream';
import type { PublishFailReason } from '@cadence/shared/publish-fail-reasons';
import type { CommercialContent, Delivery } from '@cadence/shared/schemas/schedule';

/**
 * Where a run was when an error happened: `prepare` (checks, token), `init` (the start, which may
 * have created something at the platform), `upload` (the media transfer), `poll` (status checks).
 */
export type PublishPhase = 'prepare' | 'init' | 'upload' | 'poll';

/** What the core does about a failed call (the driver decides, for its own errors). */
export type ErrorReaction =
  | { action: 'retry'; reason: PublishFailReason; delayMs: number }
  | { action: 'fail'; reason: PublishFailReason }
  /** The start may have reached the platform: never start again, the creator checks. */
  | { action: 'outcome_unknown' }
  /** The platform's daily cap: not a failure, the post waits for the account's next day with room. */
  | { action: 'postpone'; reason: PublishFailReason };

/** The post's columns a driver reads to publish it (the core's claimed row carries them all). */
export interface PostToPublish {
  id: string;
  title: string;
  /** Null for inbox drafts. */
  privacy_level: string | null;
  delivery: Delivery;
  allow_comment: boolean;
  allow_duet: boolean;
  allow_stitch: boolean;
  commercial_content: CommercialContent;
  is_aigc: boolean;
  cover_timestamp_ms: number | null;
  duration_seconds: number;
  size_bytes: number;
}

/** How the start is sent; `onAnswer` is told when the platform's answer starts to arrive. */
export interface StartOptions {
  onAnswer?: () => void;
}

/** The media's bytes go to the platform in these ranges (inclusive), in this order. */
export interface ChunkRange {
  first: number;
  last: number;
}

/** Where the worker sends the media, as the start's answer said. */
export interface UploadTarget {
  url: string;
  /** The target stops accepting bytes then (TikTok's upload_url: an hour). */
  expiresAt: Date;
  chunkSize: number;
  totalChunkCount: number;
}

/** The platform accepted the start. */
export interface StartedAttempt {
  /**
   * The platform's id for this attempt (TikTok's publish_id, YouTube's upload session, Instagram's
   * container): recorded before anything else, so a restarted run resumes instead of posting twice.
   */
  attemptId: string;
  /** Where to send the media; null when the platform pulls it from `mediaUrl`. */
  upload: UploadTarget | null;
}

/** What the start would send, or why the post cannot go (nothing is sent). */
export type PreparedStart =
  | { send: (accessToken: string, options: StartOptions) => Promise<StartedAttempt> }
  | { refuse: PublishFailReason };

/** One range of the media on its way (`body`: exactly its bytes, streamed). */
export interface ChunkToSend {
  body: Readable;
  first: number;
  last: number;
  total: number;
  /** The stored media's content type. */
  contentType: string;
  signal?: AbortSignal;
}

/** An attempt's state at the platform, in the core's words (`reported`: the platform's own). */
export type AttemptStatus = { reported: string } & (
  | { state: 'receiving'; receivedBytes: number | null }
  | { state: 'processing' }
  | { state: 'published'; publicId: string | null }
  /** Delivered to the creator's drafts (an inbox post): they finish it in the platform's app. */
  | { state: 'in_inbox' }
  | { state: 'failed'; reason: PublishFailReason; platformReason: string | null }
  /** A status the platform added since: not a failure, the checks go on. */
  | { state: 'unknown' }
);

/** What the core plans around, per connected account. */
export interface PlatformLimits {
  /** Starts the platform counts over a sliding window (the core's rate ledger paces them). */
  startWindow: { starts: number; windowMs: number };
  /** The reason a post fails with when the account's daily cap leaves it no day with room. */
  dailyCapReason: PublishFailReason;
}

export interface PlatformDriver {
  readonly limits: PlatformLimits;
  /**
   * What to check before publishing and what to send: runs with the access token the start will
   * use. `mediaUrl`: a signed link the platform may pull the media from (null: it must be sent).
   * `lap(phase)` closes a phase of the run's timings (a check's own name).
   */
  prepareStart(
    accessToken: string,
    post: PostToPublish,
    context: { mediaUrl: string | null; lap: (phase: string) => void },
  ): Promise<PreparedStart>;
  /** The ranges a started upload sends, from what its start recorded. */
  chunks(size: number, chunkSize: number, totalChunkCount: number): ChunkRange[];
  /** Sends one range to the upload target; throws the platform's error when refused. */
  sendChunk(url: string, chunk: ChunkToSend): Promise<void>;
  fetchStatus(accessToken: string, attemptId: string): Promise<AttemptStatus>;
  /**
   * Whether a post published without a public id gets one later (found by later status checks),
   * as TikTok's do after moderation, except for posts only the creator sees.
   */
  awaitsPublicId(post: PostToPublish): boolean;
  /** How to react to `error` in `phase`; undefined when it is not the platform's error. */
  reactToError: (error: unknown, phase: PublishPhase, attempt: number) => ErrorReaction | undefined;
  /** Whether a failed start was answered by the platform (refused: it created nothing). */
  wasAnswered(error: unknown): boolean;
}
