import type { InitTimings, PublisherDeps } from './publisher-context.ts';

/** One run's timeline, from its start until the platform answers its start (InitTimings). */
export interface RunTimeline {
  last: number;
  phases: Record<string, number>;
  stampedAtMs?: number;
  /**
   * How long after the instant it waited for (its due time, its slot) the start left: this
   * process's event loop, busy with other runs, let it go that much later.
   */
  sentLateMs?: number;
  /** Its slot was reserved ahead: it frees a window after the account's earlier starts. */
  paced?: boolean;
  /** The platform's id for the attempt, once the start was accepted. */
  publishId?: string;
}

/**
 * Where each run's time goes between its start and the platform's answer to its start
 * (InitTimings, told to PublisherDeps.onInitTimings and logged at debug): milliseconds per phase.
 */
export function createRunTimings(
  onInitTimings: PublisherDeps['onInitTimings'],
  logger: PublisherDeps['logger'],
) {
  const timelines = new Map<string, RunTimeline>();

  /** The run's timings once it ends, when its start was accepted. */
  function timingsOf(postId: string, timeline: RunTimeline): InitTimings | null {
    if (timeline.publishId === undefined) return null;
    return {
      postId,
      publishId: timeline.publishId,
      ...(timeline.stampedAtMs !== undefined && { stampedAtMs: timeline.stampedAtMs }),
      ...(timeline.sentLateMs !== undefined && {
        sentLateMs: Math.round(timeline.sentLateMs),
      }),
      paced: timeline.paced === true,
      phases: Object.fromEntries(
        Object.entries(timeline.phases).map(([phase, ms]) => [phase, Math.round(ms)]),
      ),
    };
  }

  return {
    start(postId: string): void {
      timelines.set(postId, { last: performance.now(), phases: {} });
    },

    /** Closes `phase`: the time since the last lap is added to it. */
    lap(postId: string, phase: string, now = performance.now()): void {
      const timeline = timelines.get(postId);
      if (!timeline) return;
      timeline.phases[phase] = (timeline.phases[phase] ?? 0) + (now - timeline.last);
      timeline.last = now;
    },

    /** The run's timeline, to note what it learns (undefined: its run is not timed). */
    of: (postId: string): RunTimeline | undefined => timelines.get(postId),

    /** Ends the run's timeline; its timings are told once the run is over, not amid a burst. */
    finish(postId: string): void {
      const timeline = timelines.get(postId);
      timelines.delete(postId);
      const timings = timeline && timingsOf(postId, timeline);
      if (!timings) return;
      onInitTimings?.(timings);
      logger.debug?.(timings, 'video init timings');
    },
  };
}

export type RunTimings = ReturnType<typeof createRunTimings>;
