/** The delay before retrying a failed step: 5 s, 10 s, 20 s … capped at 5 minutes. */
export function retryDelayMs(attempt: number): number {
  return Math.min(300_000, 5_000 * 2 ** Math.max(0, attempt - 1));
}
