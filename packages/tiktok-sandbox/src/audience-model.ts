import { zonedSlot } from '@cadence/shared/analytics/best-times';
import { sha256Hex } from './ids.ts';

/**
 * The sandbox's deterministic audience: how many people watch, like, comment and share a video,
 * given who posted it, when (hour and weekday, in the creator's time zone) and how long ago.
 * Everything is a pure function of the username, the video id and the ages involved, so tests and
 * benchmarks know the truth they should recover (the planted good hours) and every run agrees.
 */

/** One of the hours a creator's audience answers best (spills over ±1 h at a quarter of the lift). */
export interface PlantedHour {
  /** 0–23, wall clock in the profile's time zone. */
  hour: number;
  /** Multiplies the views of a video posted in that hour (e.g. 2.4). */
  lift: number;
}

export interface AudienceProfile {
  username: string;
  /** IANA zone the hours and weekdays below are read in. */
  timeZone: string;
  /** Views a video posted at an ordinary hour settles at, before noise. */
  baseViews: number;
  /** The planted good hours, best first. */
  goodHours: PlantedHour[];
  /** Per weekday, 0 = Monday … 6 = Sunday: a mild multiplier. */
  weekdayLift: number[];
  /** Standard deviation of the per-video log-normal noise. */
  noiseSigma: number;
  /** Hours for views to reach 63 % of their final count (1 − e^−age/τ). */
  growthHours: number;
  likeRate: number;
  commentRate: number;
  shareRate: number;
  baseFollowers: number;
  followingCount: number;
  /** New followers per view. */
  followRate: number;
}

export interface VideoMetrics {
  viewCount: number;
  likeCount: number;
  commentCount: number;
  shareCount: number;
}

/** A 32-bit seed from any text. */
function seedOf(text: string): number {
  return Number.parseInt(sha256Hex(text).slice(0, 8), 16);
}

/** mulberry32: small, fast, good enough for a model (not for secrets). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** A standard normal draw (Box–Muller) from a uniform source. */
function normal(random: () => number): number {
  const u = Math.max(random(), 1e-12);
  const v = random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

/** Hours people are awake enough to watch: planted good hours are drawn from these. */
const ACTIVE_HOURS = [8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22];

/**
 * The audience of a sandbox username: two planted good hours at least three hours apart (lifts
 * 2.2–2.8 and 1.8–2.2), a mild weekday effect, log-normal noise σ = 0.3.
 */
export function audienceProfileFor(username: string, timeZone = 'Europe/Paris'): AudienceProfile {
  const random = seededRandom(seedOf(`audience\u0000${username}`));
  const pick = () => ACTIVE_HOURS[Math.floor(random() * ACTIVE_HOURS.length)] ?? 18;
  const first = pick();
  let second = pick();
  while (Math.abs(second - first) < 3) second = pick();
  return {
    username,
    timeZone,
    baseViews: Math.round(400 + random() * 4_600),
    goodHours: [
      { hour: first, lift: 2.2 + random() * 0.6 },
      { hour: second, lift: 1.8 + random() * 0.4 },
    ],
    weekdayLift: Array.from({ length: 7 }, () => 0.9 + random() * 0.2),
    noiseSigma: 0.3,
    growthHours: 10,
    likeRate: 0.05 + random() * 0.06,
    commentRate: 0.004 + random() * 0.006,
    shareRate: 0.002 + random() * 0.004,
    baseFollowers: Math.round(200 + random() * 20_000),
    followingCount: Math.round(20 + random() * 300),
    followRate: 0.004 + random() * 0.004,
  };
}

/** Weekday (0 = Monday) and hour (0–23) of an instant on the wall clock of `timeZone`. */
export function weekdayAndHour(ms: number, timeZone: string): { weekday: number; hour: number } {
  const { weekday, hour } = zonedSlot(ms, timeZone);
  return { weekday, hour };
}

/** How much the posting hour lifts views: the planted hours, a quarter as much an hour either side. */
export function hourLift(profile: AudienceProfile, hour: number): number {
  let lift = 1;
  for (const good of profile.goodHours) {
    const distance = Math.min(Math.abs(hour - good.hour), 24 - Math.abs(hour - good.hour));
    if (distance === 0) lift = Math.max(lift, good.lift);
    else if (distance === 1) lift = Math.max(lift, 1 + (good.lift - 1) / 4);
  }
  return lift;
}

/** Views the video settles at (its age → ∞), noise included. */
export function finalViews(profile: AudienceProfile, videoId: string, createdAtMs: number): number {
  const { weekday, hour } = weekdayAndHour(createdAtMs, profile.timeZone);
  const random = seededRandom(seedOf(`video\u0000${videoId}`));
  const noise = Math.exp(profile.noiseSigma * normal(random));
  return profile.baseViews * hourLift(profile, hour) * (profile.weekdayLift[weekday] ?? 1) * noise;
}

/** The counts TikTok would show for the video at `nowMs`: they only ever grow. */
export function videoMetricsAt(
  profile: AudienceProfile,
  videoId: string,
  createdAtMs: number,
  nowMs: number,
): VideoMetrics {
  const ageHours = Math.max(0, (nowMs - createdAtMs) / 3_600_000);
  const views =
    finalViews(profile, videoId, createdAtMs) * (1 - Math.exp(-ageHours / profile.growthHours));
  // Some videos get more reactions per view than others (±30 %), the same at every age.
  const reactions = seededRandom(seedOf(`reactions\u0000${videoId}`));
  const rate = (base: number) => base * (0.7 + 0.6 * reactions());
  return {
    viewCount: Math.floor(views),
    likeCount: Math.floor(views * rate(profile.likeRate)),
    commentCount: Math.floor(views * rate(profile.commentRate)),
    shareCount: Math.floor(views * rate(profile.shareRate)),
  };
}

export interface AccountTotals {
  followerCount: number;
  followingCount: number;
  likesCount: number;
  videoCount: number;
}

/** The account's stats (user.info.stats) given its public videos at `nowMs`. */
export function accountTotalsAt(
  profile: AudienceProfile,
  videos: readonly { id: string; createdAtMs: number }[],
  nowMs: number,
): AccountTotals {
  let views = 0;
  let likes = 0;
  let count = 0;
  for (const video of videos) {
    if (video.createdAtMs > nowMs) continue;
    const metrics = videoMetricsAt(profile, video.id, video.createdAtMs, nowMs);
    views += metrics.viewCount;
    likes += metrics.likeCount;
    count += 1;
  }
  return {
    followerCount: profile.baseFollowers + Math.floor(views * profile.followRate),
    followingCount: profile.followingCount,
    likesCount: likes,
    videoCount: count,
  };
}
