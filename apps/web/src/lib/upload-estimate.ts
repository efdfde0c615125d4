/**
 * How long an upload has left, from its progress events. Pure: the caller passes each event's
 * time (performance.now() in the app, made-up instants in tests), so nothing here reads a clock.
 *
 * The rate is an exponential moving average of the rate between events, weighted by the time
 * each covers (events come at irregular intervals: every few milliseconds while a request sends,
 * none while tus waits for the server between chunks). With a 5 s time constant it follows a
 * connection that slows down within seconds without jumping at every event.
 */
export interface TransferEstimate {
  /** The first event seen: an estimate needs some time and bytes after it. */
  startedAt: number;
  startBytes: number;
  lastAt: number;
  lastBytes: number;
  /** Bytes per millisecond; null until two events are apart in time. */
  rate: number | null;
}

const TIME_CONSTANT_MS = 5_000;
/** Before this long and this many bytes since the first event, the rate says little. */
export const MIN_ELAPSED_MS = 3_000;
export const MIN_BYTES = 256 * 1024;

/** The estimate after an event at `at` reporting `sentBytes` sent in all (a resume's offset included). */
export function trackTransfer(
  previous: TransferEstimate | null,
  at: number,
  sentBytes: number,
): TransferEstimate {
  if (previous === null) {
    return { startedAt: at, startBytes: sentBytes, lastAt: at, lastBytes: sentBytes, rate: null };
  }
  const elapsed = at - previous.lastAt;
  if (sentBytes < previous.lastBytes) {
    // tus went back to the server's offset after a failed request: what was counted past it
    // was not sent after all. Start the count again from there, keeping the rate seen so far.
    return { ...previous, startedAt: at, startBytes: sentBytes, lastAt: at, lastBytes: sentBytes };
  }
  if (elapsed <= 0) return { ...previous, lastBytes: sentBytes };
  const sample = (sentBytes - previous.lastBytes) / elapsed;
  const weight = 1 - Math.exp(-elapsed / TIME_CONSTANT_MS);
  const rate = previous.rate === null ? sample : previous.rate + weight * (sample - previous.rate);
  return { ...previous, lastAt: at, lastBytes: sentBytes, rate };
}

/**
 * Milliseconds left to send `totalBytes`, or null while there is no meaningful estimate: too
 * soon after the first event, too few bytes since, or nothing moving.
 */
export function remainingMs(estimate: TransferEstimate | null, totalBytes: number): number | null {
  if (estimate === null || estimate.rate === null || estimate.rate <= 0) return null;
  if (estimate.lastAt - estimate.startedAt < MIN_ELAPSED_MS) return null;
  if (estimate.lastBytes - estimate.startBytes < MIN_BYTES) return null;
  return Math.max(0, totalBytes - estimate.lastBytes) / estimate.rate;
}

/**
 * A time left as people say it: under a minute; whole minutes under an hour; hours by the half
 * under 10 h ('1,5 h'), whole hours beyond.
 */
export type RoundedTimeLeft =
  { unit: 'lessThanMinute' } | { unit: 'minute'; value: number } | { unit: 'hour'; value: number };

export function roundTimeLeft(ms: number): RoundedTimeLeft {
  if (ms < 60_000) return { unit: 'lessThanMinute' };
  const minutes = Math.round(ms / 60_000);
  if (minutes < 60) return { unit: 'minute', value: minutes };
  const hours = ms / 3_600_000;
  return { unit: 'hour', value: hours < 10 ? Math.round(hours * 2) / 2 : Math.round(hours) };
}
