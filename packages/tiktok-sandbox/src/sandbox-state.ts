import { SandboxControl } from './control.ts';
import { newLogId, tokenFingerprint } from './ids.ts';
import {
  createPersistScheduler,
  readPersistedOAuth,
  writeFileAtomicSync,
  type PersistScheduler,
} from './oauth-persistence.ts';
import { OAuthStore } from './oauth-store.ts';
import {
  resolveStateOptions,
  type ResolvedStateOptions,
  type SandboxStateOptions,
} from './options.ts';
import { PostStore, type DirectPostInfo, type PublishStatus } from './post-store.ts';
import { RateLimiter } from './rate-limiter.ts';
import { VideoCatalog } from './video-catalog.ts';

export interface LedgerUser {
  open_id: string;
  union_id: string;
  username: string;
  display_name: string;
  client_key: string;
  private_account: boolean;
  cannot_post: string | null;
}

export interface LedgerToken {
  kind: 'access' | 'refresh';
  /** First 12 hex digits of the token's SHA-256; the token itself never leaves the sandbox. */
  fingerprint: string;
  open_id: string;
  client_key: string;
  scope: string;
  issued_at: string;
  expires_at: string;
  revoked_at: string | null;
  rotated_at: string | null;
}

export interface LedgerPost {
  publish_id: string;
  kind: 'direct' | 'inbox';
  open_id: string;
  client_key: string;
  post_info: DirectPostInfo | null;
  video_size: number;
  chunk_size: number;
  total_chunk_count: number;
  received_bytes: number;
  received_chunks: number;
  /** SHA-256 of the bytes actually received, once the last chunk is in. */
  sha256: string | null;
  status: PublishStatus;
  fail_reason: string | null;
  post_ids: string[];
  init_at: string;
  upload_completed_at: string | null;
}

export interface SandboxLedger {
  users: LedgerUser[];
  tokens: LedgerToken[];
  posts: LedgerPost[];
  /** Requests answered 429 rate_limit_exceeded by the per-token limits, oldest first. */
  rate_limited: { endpoint: string; at: string }[];
}

function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

/** Long enough to coalesce one token exchange's changes, short enough that a crash loses little. */
const PERSIST_DELAY_MS = 200;

/**
 * Everything the sandbox remembers; one instance per plugin registration or test. In memory,
 * except users, consents and tokens when `persistFile` is set.
 */
export class SandboxState {
  readonly options: ResolvedStateOptions;
  readonly oauth: OAuthStore;
  readonly posts: PostStore;
  readonly rateLimiter: RateLimiter;
  /** Public videos (posted through the API or seeded) and the audience model behind their counts. */
  readonly videos: VideoCatalog;
  /** Fault injection for tests; see SandboxControl. */
  readonly control: SandboxControl;
  private readonly persistence: PersistScheduler | null;

  constructor(options: SandboxStateOptions = {}) {
    this.options = resolveStateOptions(options);
    this.persistence = this.createPersistence();
    this.oauth = new OAuthStore(this.options, () => this.persistence?.schedule());
    const file = this.options.persistFile;
    if (file !== null) {
      const saved = readPersistedOAuth(file, this.options.onPersistenceWarning);
      if (saved !== null) this.oauth.restore(saved);
    }
    this.posts = new PostStore(this.options);
    this.rateLimiter = new RateLimiter(this.options.now, this.options.rateLimitWindowMs);
    this.videos = new VideoCatalog(this.posts, this.options.audienceTimeZone);
    this.control = new SandboxControl(this.oauth, this.posts, this.rateLimiter, this.videos);
  }

  now(): number {
    return this.options.now();
  }

  /**
   * Writes pending changes to `persistFile` now and cancels the delayed write (no-op without a
   * file). The plugin calls it on close; call it yourself before exiting if you own the state.
   */
  flush(): void {
    this.persistence?.flush();
  }

  private createPersistence(): PersistScheduler | null {
    const file = this.options.persistFile;
    if (file === null) return null;
    return createPersistScheduler({
      delayMs: PERSIST_DELAY_MS,
      save: () => writeFileAtomicSync(file, `${JSON.stringify(this.oauth.snapshot(), null, 2)}\n`),
      warn: this.options.onPersistenceWarning,
    });
  }

  newLogId(): string {
    return newLogId(this.now());
  }

  ledger(): SandboxLedger {
    const users = [...this.oauth.users.values()].map((user): LedgerUser => {
      const flags = this.control.flagsOf(user.username);
      return {
        open_id: user.openId,
        union_id: user.unionId,
        username: user.username,
        display_name: user.displayName,
        client_key: user.clientKey,
        private_account: flags.privateAccount,
        cannot_post: flags.cannotPost,
      };
    });
    const tokens = [...this.oauth.tokens.values()].map((record): LedgerToken => {
      const grant = this.oauth.grantOf(record);
      return {
        kind: record.kind,
        fingerprint: tokenFingerprint(record.token),
        open_id: grant.openId,
        client_key: grant.clientKey,
        scope: grant.scopes.join(','),
        issued_at: new Date(record.issuedAt).toISOString(),
        expires_at: new Date(record.expiresAt).toISOString(),
        revoked_at: iso(record.revokedAt),
        rotated_at: iso(record.rotatedAt),
      };
    });
    const posts = [...this.posts.posts.values()].map((post): LedgerPost => {
      const view = this.posts.statusOf(post);
      return {
        publish_id: post.publishId,
        kind: post.kind,
        open_id: post.openId,
        client_key: post.clientKey,
        post_info: post.postInfo,
        video_size: post.videoSize,
        chunk_size: post.chunkSize,
        total_chunk_count: post.totalChunkCount,
        received_bytes: post.receivedBytes,
        received_chunks: post.receivedChunks,
        sha256: post.sha256,
        status: view.status,
        fail_reason: view.failReason,
        post_ids: view.status === 'PUBLISH_COMPLETE' ? [post.postId] : [],
        init_at: new Date(post.initAt).toISOString(),
        upload_completed_at: iso(post.uploadCompletedAt),
      };
    });
    const rateLimited = this.rateLimiter.refusals().map((refusal) => ({
      // Keys are `endpoint\0token`: the token stays inside the sandbox.
      endpoint: refusal.key.split('\u0000')[0] ?? '',
      at: new Date(refusal.at).toISOString(),
    }));
    return { users, tokens, posts, rate_limited: rateLimited };
  }
}
