/** Why a heartbeat stopped the work: its lease is no longer, or may no longer be, its own. */
export class LeaseLostError extends Error {
  override name = 'LeaseLostError';
  constructor(
    /** 'taken': a renewal found it gone; 'unconfirmed': no renewal landed within the lease. */
    readonly kind: 'taken' | 'unconfirmed',
  ) {
    super(kind === 'taken' ? 'lease lost' : 'lease not renewed in time');
  }
}

/**
 * Why a heartbeat's work was stopped, when its lease was the cause: 'taken' (another worker holds
 * it now) or 'unconfirmed' (no renewal landed in time; the lease may still be ours). Null when the
 * work stopped for any other reason (a cancel, an abandoned job) or has not stopped.
 */
export function leaseLoss(signal: AbortSignal): LeaseLostError['kind'] | null {
  const reason: unknown = signal.reason;
  return signal.aborted && reason instanceof LeaseLostError ? reason.kind : null;
}

export interface Heartbeat {
  /**
   * Aborted when the lease is lost (reason: LeaseLostError) or the caller's `signal` aborts (its
   * reason): the work stops and writes nothing more. Beating stops with it.
   */
  readonly signal: AbortSignal;
  /** Stops beating; resolves once no renewal is in flight, so none lands after the caller's end. */
  stop(): Promise<void>;
}

/**
 * Keeps a lease while work runs (docs/decisions/018-one-lease.md): `renew` every `intervalMs`.
 * A renewal answering false (taken over, cancelled, deleted) aborts `signal`; so does a lease with
 * no renewal confirmed for `lostAfterMs` (database unreachable or slow: by then another worker may
 * hold it), counted from when the last confirmed renewal — or the claim, `since` — was sent. A
 * renewal that throws is reported and the next one tried.
 */
export function startHeartbeat({
  intervalMs,
  firstIntervalMs = intervalMs,
  renew,
  lostAfterMs,
  since = Date.now(),
  signal,
  onError,
}: {
  intervalMs: number;
  /**
   * Wait before the first renewal (default `intervalMs`): a lease claimed long enough to cover a
   * known idle stretch needs no renewal during it (a prepared publish run waiting for its time).
   */
  firstIntervalMs?: number;
  renew: () => Promise<boolean>;
  lostAfterMs?: number;
  since?: number;
  signal?: AbortSignal;
  onError: (error: unknown) => void;
}): Heartbeat {
  const lost = new AbortController();
  const work = signal ? AbortSignal.any([signal, lost.signal]) : lost.signal;
  let timer: NodeJS.Timeout | undefined;
  let deadline: NodeJS.Timeout | undefined;
  let inFlight = Promise.resolve();
  let beating = true;

  const halt = () => {
    beating = false;
    clearTimeout(timer);
    clearTimeout(deadline);
  };
  const lose = (kind: LeaseLostError['kind']) => {
    halt();
    lost.abort(new LeaseLostError(kind));
  };
  const confirmedFrom = (sentAt: number) => {
    if (lostAfterMs === undefined) return;
    clearTimeout(deadline);
    deadline = setTimeout(() => lose('unconfirmed'), sentAt + lostAfterMs - Date.now());
    deadline.unref();
  };
  const schedule = (waitMs = intervalMs) => {
    timer = setTimeout(() => {
      inFlight = (async () => {
        const sentAt = Date.now();
        try {
          const kept = await renew();
          if (!beating) return;
          if (!kept) {
            lose('taken');
            return;
          }
          confirmedFrom(sentAt);
        } catch (error) {
          onError(error);
        }
        if (beating) schedule();
      })();
    }, waitMs);
    // A heartbeat never keeps a process alive on its own: the work it guards does.
    timer.unref();
  };

  work.addEventListener('abort', halt, { once: true });
  confirmedFrom(since);
  schedule(firstIntervalMs);
  return {
    signal: work,
    async stop() {
      work.removeEventListener('abort', halt);
      halt();
      await inFlight;
    },
  };
}
