import type { SandboxEndpoint } from './options.ts';

/**
 * Random faults for a whole run (chaos tests): each request to an affected endpoint draws once
 * from a seeded generator, so the same seed and the same order of requests give the same faults.
 * Rates are probabilities in [0, 1]; their sum must not exceed 1.
 */
export interface ChaosSettings {
  /** Seed of the draws (any 32-bit integer). */
  seed: number;
  /** Share of requests answered 500, 502, 503 or 504 in the endpoint's error shape (default 0). */
  serverErrorRate?: number;
  /** Share of requests answered 429 `rate_limit_exceeded` (default 0). */
  rateLimitRate?: number;
  /**
   * Share of requests held for `timeoutMs` and then dropped without an answer, before the
   * sandbox handles them (nothing is created). Past the client's own timeout it sees a timeout,
   * before it a dropped connection (default 0).
   */
  timeoutRate?: number;
  /** How long a "timed out" request is held before its connection is closed (default 30,000 ms). */
  timeoutMs?: number;
  /** Endpoints the faults apply to (default: every v2 API call and upload, not the OAuth pages). */
  endpoints?: readonly SandboxEndpoint[];
}

export type ChaosFault =
  | { kind: 'server_error'; status: number }
  | { kind: 'rate_limit' }
  | { kind: 'timeout'; holdMs: number };

/** One fault the sandbox injected, for a test to reconcile with what its client recorded. */
export interface InjectedFaultRecord {
  endpoint: SandboxEndpoint;
  kind: ChaosFault['kind'];
  /** The HTTP status sent (null for a dropped connection). */
  status: number | null;
  /** Epoch ms when the request arrived. */
  at: number;
  /** 12-hex fingerprint of the bearer token, when the request carried one. */
  tokenFingerprint: string | null;
}

const DEFAULT_CHAOS_ENDPOINTS: readonly SandboxEndpoint[] = [
  'user_info',
  'creator_info',
  'video_init',
  'inbox_init',
  'upload',
  'status_fetch',
  'video_list',
  'video_query',
];

const SERVER_ERROR_STATUSES = [500, 502, 503, 504] as const;

/** mulberry32: tiny, fast, and good enough to spread faults; not for anything secret. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export class ChaosError extends Error {
  override name = 'ChaosError';
}

/** The dice of one chaos run. */
export class Chaos {
  private readonly random: () => number;
  private readonly endpoints: ReadonlySet<SandboxEndpoint>;
  private readonly serverErrorRate: number;
  private readonly rateLimitRate: number;
  private readonly timeoutRate: number;
  private readonly timeoutMs: number;

  constructor(settings: ChaosSettings) {
    const rates = [settings.serverErrorRate, settings.rateLimitRate, settings.timeoutRate];
    if (rates.some((rate) => rate !== undefined && !(rate >= 0 && rate <= 1))) {
      throw new ChaosError('Chaos rates must be between 0 and 1.');
    }
    this.serverErrorRate = settings.serverErrorRate ?? 0;
    this.rateLimitRate = settings.rateLimitRate ?? 0;
    this.timeoutRate = settings.timeoutRate ?? 0;
    if (this.serverErrorRate + this.rateLimitRate + this.timeoutRate > 1) {
      throw new ChaosError('Chaos rates must not add up to more than 1.');
    }
    this.timeoutMs = Math.max(0, settings.timeoutMs ?? 30_000);
    this.endpoints = new Set(settings.endpoints ?? DEFAULT_CHAOS_ENDPOINTS);
    this.random = seededRandom(settings.seed);
  }

  /** Draws the fate of one request: a fault, or null to handle it normally. */
  draw(endpoint: SandboxEndpoint): ChaosFault | null {
    if (!this.endpoints.has(endpoint)) return null;
    const roll = this.random();
    if (roll < this.serverErrorRate) {
      const index = Math.floor(this.random() * SERVER_ERROR_STATUSES.length);
      return { kind: 'server_error', status: SERVER_ERROR_STATUSES[index] ?? 500 };
    }
    if (roll < this.serverErrorRate + this.rateLimitRate) return { kind: 'rate_limit' };
    if (roll < this.serverErrorRate + this.rateLimitRate + this.timeoutRate) {
      return { kind: 'timeout', holdMs: this.timeoutMs };
    }
    return null;
  }
}
