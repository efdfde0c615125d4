/**
 * Beats every `intervalMs` while a job runs: `beat` both tells other workers the job is alive and
 * tells the job whether it still owns its row. When `beat` answers false (cancelled, deleted,
 * lease taken) the heartbeat stops and `onLost` runs; a beat that throws is reported and the next
 * one is tried. `stop()` resolves once no beat is in flight, so nothing writes after the caller.
 */
export function startHeartbeat({
  intervalMs,
  beat,
  onLost,
  onError,
}: {
  intervalMs: number;
  beat: () => Promise<boolean>;
  onLost: () => void;
  onError: (error: unknown) => void;
}): { stop: () => Promise<void> } {
  let beating = true;
  let timer: NodeJS.Timeout | undefined;
  let inFlight = Promise.resolve();
  const schedule = () => {
    timer = setTimeout(() => {
      inFlight = (async () => {
        try {
          if (!(await beat())) {
            onLost();
            return;
          }
        } catch (error) {
          onError(error);
        }
        if (beating) schedule();
      })();
    }, intervalMs);
  };
  schedule();
  return {
    async stop() {
      beating = false;
      clearTimeout(timer);
      await inFlight;
    },
  };
}
