import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LeaseLostError, leaseLoss, startHeartbeat } from './heartbeat.ts';

/** A renewal the test answers by hand, as a database that is slow to reply. */
function pendingRenewals() {
  const calls: { answer: (kept: boolean) => void; fail: (error: Error) => void }[] = [];
  const renew = () =>
    new Promise<boolean>((resolve, reject) => {
      calls.push({ answer: resolve, fail: reject });
    });
  return { calls, renew };
}

const ignoreErrors = () => undefined;

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('startHeartbeat', () => {
  it('renews every interval while the lease is kept, and never after stop()', async () => {
    let renewals = 0;
    const heartbeat = startHeartbeat({
      intervalMs: 100,
      renew: () => {
        renewals += 1;
        return Promise.resolve(true);
      },
      onError: ignoreErrors,
    });
    await vi.advanceTimersByTimeAsync(350);
    expect(renewals).toBe(3);
    await heartbeat.stop();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(renewals).toBe(3);
    expect(heartbeat.signal.aborted).toBe(false);
  });

  it('stop() resolves only once the renewal in flight has answered', async () => {
    const { calls, renew } = pendingRenewals();
    const heartbeat = startHeartbeat({ intervalMs: 100, renew, onError: ignoreErrors });
    await vi.advanceTimersByTimeAsync(100);
    expect(calls).toHaveLength(1);
    let stopped = false;
    const stopping = heartbeat.stop().then(() => {
      stopped = true;
    });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(stopped).toBe(false);
    calls[0]?.answer(true);
    await stopping;
    expect(stopped).toBe(true);
    // The answer came after stop(): no next renewal is scheduled from it.
    await vi.advanceTimersByTimeAsync(1_000);
    expect(calls).toHaveLength(1);
  });

  it('aborts the work when a renewal finds the lease taken, and stops renewing', async () => {
    const { calls, renew } = pendingRenewals();
    const heartbeat = startHeartbeat({ intervalMs: 100, renew, onError: ignoreErrors });
    await vi.advanceTimersByTimeAsync(100);
    calls[0]?.answer(false);
    await vi.advanceTimersByTimeAsync(0);
    expect(heartbeat.signal.aborted).toBe(true);
    expect(heartbeat.signal.reason).toBeInstanceOf(LeaseLostError);
    expect((heartbeat.signal.reason as LeaseLostError).kind).toBe('taken');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(calls).toHaveLength(1);
    await heartbeat.stop();
  });

  it('reports a renewal that throws and tries the next one', async () => {
    const { calls, renew } = pendingRenewals();
    const errors: unknown[] = [];
    const heartbeat = startHeartbeat({
      intervalMs: 100,
      renew,
      onError: (error) => errors.push(error),
    });
    await vi.advanceTimersByTimeAsync(100);
    calls[0]?.fail(new Error('connection reset'));
    await vi.advanceTimersByTimeAsync(100);
    expect(errors).toEqual([new Error('connection reset')]);
    expect(calls).toHaveLength(2);
    expect(heartbeat.signal.aborted).toBe(false);
    calls[1]?.answer(true);
    await heartbeat.stop();
  });

  it('aborts the work when no renewal is confirmed within the lease, counted from the claim', async () => {
    const { calls, renew } = pendingRenewals();
    const claimedAt = Date.now();
    await vi.advanceTimersByTimeAsync(200);
    const heartbeat = startHeartbeat({
      intervalMs: 300,
      renew,
      lostAfterMs: 1_000,
      since: claimedAt,
      onError: ignoreErrors,
    });
    // The first renewal (sent 500 ms after the claim) confirms the lease from its sending.
    await vi.advanceTimersByTimeAsync(300);
    calls[0]?.answer(true);
    // The next one hangs: the lease sent at 500 ms runs out at 1 500 ms, not a moment later.
    await vi.advanceTimersByTimeAsync(300);
    expect(calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1_500 - (Date.now() - claimedAt) - 1);
    expect(heartbeat.signal.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(heartbeat.signal.aborted).toBe(true);
    expect((heartbeat.signal.reason as LeaseLostError).kind).toBe('unconfirmed');
    calls[1]?.answer(true);
    await heartbeat.stop();
  });

  it("stops with the caller's signal (cancelled, job abandoned) and lets the lease lapse", async () => {
    let renewals = 0;
    const caller = new AbortController();
    const heartbeat = startHeartbeat({
      intervalMs: 100,
      renew: () => {
        renewals += 1;
        return Promise.resolve(true);
      },
      signal: caller.signal,
      onError: ignoreErrors,
    });
    await vi.advanceTimersByTimeAsync(100);
    caller.abort(new Error('cancelled'));
    expect(heartbeat.signal.aborted).toBe(true);
    expect(heartbeat.signal.reason).toEqual(new Error('cancelled'));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(renewals).toBe(1);
    await heartbeat.stop();
  });
});

describe('leaseLoss', () => {
  it('names the lease as the cause of a stop, and only the lease', () => {
    expect(leaseLoss(new AbortController().signal)).toBeNull();
    expect(leaseLoss(AbortSignal.abort(new LeaseLostError('taken')))).toBe('taken');
    expect(leaseLoss(AbortSignal.abort(new LeaseLostError('unconfirmed')))).toBe('unconfirmed');
    expect(leaseLoss(AbortSignal.abort(new Error('cancelled by the user')))).toBeNull();
  });
});
