import {
  accountTotalsAt,
  audienceProfileFor,
  videoMetricsAt,
  type AccountTotals,
  type AudienceProfile,
  type VideoMetrics,
} from './audience-model.ts';
import { sha256Hex } from './ids.ts';
import type { SandboxUser } from './oauth-store.ts';
import type { PostStore } from './post-store.ts';

/** A public video of a sandbox user: published through the API, or seeded by a test. */
export interface SandboxVideo {
  /** 19 digits, as TikTok's ids (beyond 2^53: only ever a string). */
  id: string;
  username: string;
  createdAtMs: number;
  title: string;
  /** 'api': posted through the Content Posting API (Cadence); 'seeded': posted "elsewhere". */
  origin: 'api' | 'seeded';
}

export interface SeedVideoInput {
  createdAtMs: number;
  title?: string;
}

/** A stable 19-digit id for a seeded video, so a seeded history is the same on every run. */
function seededVideoId(username: string, index: number, createdAtMs: number): string {
  const digits = BigInt(
    `0x${sha256Hex(`seeded\u0000${username}\u0000${index}\u0000${createdAtMs}`).slice(0, 15)}`,
  )
    .toString()
    .padStart(18, '0')
    .slice(-18);
  return `7${digits}`;
}

/**
 * Every user's public videos and what the audience model makes of them. Videos posted through the
 * API come from the post store (public, completed posts); tests add a history posted elsewhere
 * with `seed`. Seeded videos are kept in memory only, like posts.
 */
export class VideoCatalog {
  private readonly seeded = new Map<string, SandboxVideo[]>();
  private readonly profiles = new Map<string, AudienceProfile>();

  constructor(
    private readonly posts: PostStore,
    private readonly timeZone: string,
  ) {}

  /** The username's audience (planted good hours and all): the truth analytics should find. */
  audienceOf(username: string): AudienceProfile {
    let profile = this.profiles.get(username);
    if (profile === undefined) {
      profile = audienceProfileFor(username, this.timeZone);
      this.profiles.set(username, profile);
    }
    return profile;
  }

  /**
   * Adds videos "posted outside Cadence" to a username's profile (the user need not have
   * connected yet). Two videos never share a millisecond: the list's cursor is a time.
   */
  seed(username: string, videos: readonly SeedVideoInput[]): SandboxVideo[] {
    const list = this.seeded.get(username) ?? [];
    const taken = new Set(list.map((video) => video.createdAtMs));
    const added: SandboxVideo[] = [];
    for (const input of videos) {
      let createdAtMs = Math.floor(input.createdAtMs);
      while (taken.has(createdAtMs)) createdAtMs += 1;
      taken.add(createdAtMs);
      const video: SandboxVideo = {
        id: seededVideoId(username, list.length + added.length, createdAtMs),
        username,
        createdAtMs,
        title: input.title ?? `Video ${list.length + added.length + 1}`,
        origin: 'seeded',
      };
      added.push(video);
    }
    this.seeded.set(username, [...list, ...added]);
    return added;
  }

  reset(): void {
    this.seeded.clear();
  }

  /** The user's public videos created up to `nowMs`, newest first. */
  publicVideosOf(user: SandboxUser, nowMs: number): SandboxVideo[] {
    const fromApi: SandboxVideo[] = [];
    for (const post of this.posts.posts.values()) {
      if (post.openId !== user.openId || post.kind !== 'direct') continue;
      const view = this.posts.statusOf(post);
      if (view.status !== 'PUBLISH_COMPLETE' || view.publicPostIds.length === 0) continue;
      if (view.completedAt === null) continue;
      fromApi.push({
        id: post.postId,
        username: user.username,
        createdAtMs: view.completedAt,
        title: post.postInfo?.title ?? '',
        origin: 'api',
      });
    }
    return [...fromApi, ...this.seededOf(user.username, nowMs)].sort(
      (a, b) => b.createdAtMs - a.createdAtMs,
    );
  }

  /** The username's seeded videos created up to `nowMs`. */
  seededOf(username: string, nowMs: number): SandboxVideo[] {
    return (this.seeded.get(username) ?? []).filter((video) => video.createdAtMs <= nowMs);
  }

  metricsOf(video: SandboxVideo, nowMs: number): VideoMetrics {
    return videoMetricsAt(this.audienceOf(video.username), video.id, video.createdAtMs, nowMs);
  }

  totalsOf(user: SandboxUser, nowMs: number): AccountTotals {
    return accountTotalsAt(this.audienceOf(user.username), this.publicVideosOf(user, nowMs), nowMs);
  }
}
