/** TikTok's rate-limit window: a sliding minute. */
export const RATE_LIMIT_WINDOW_MS = 60_000;

/** Sliding window per key (TikTok's minute by default), driven by the injected clock (no timers). */
export class RateLimiter {
  private readonly hits = new Map<string, number[]>();
  private readonly refused: { key: string; at: number }[] = [];

  constructor(
    private readonly now: () => number,
    private readonly windowMs: number = RATE_LIMIT_WINDOW_MS,
  ) {}

  /** Records a hit and returns true when it fits within `limit` per window. */
  tryHit(key: string, limit: number): boolean {
    const now = this.now();
    const recent = (this.hits.get(key) ?? []).filter((time) => time > now - this.windowMs);
    if (recent.length >= limit) {
      // A refused request is not counted (TikTok does not say it is).
      this.hits.set(key, recent);
      this.refused.push({ key, at: now });
      return false;
    }
    recent.push(now);
    this.hits.set(key, recent);
    return true;
  }

  /** The requests refused so far, by key and time (for the ledger). */
  refusals(): readonly { key: string; at: number }[] {
    return this.refused;
  }

  reset(): void {
    this.hits.clear();
    this.refused.length = 0;
  }
}
