// The meme stages' decisions as pure functions: what a failure tells the user, where a stage's
// files go, what a recovered row runs next. The stages (meme-stages.ts, analyse-stage.ts,
// compile-stage.ts) do the I/O; these are tested with them.
import path from 'node:path';
import type { MemeFailReason, MemeStatus } from '@cadence/shared/schemas/meme';
import type { LeaseLostError } from '../../lib/heartbeat.ts';
import { QuotaExceededError } from '../media/service.ts';
import { StorageError } from '../../storage/media-storage.ts';
import { VideoAnalysisError, type VideoAnalysis } from './engine/analyze.ts';
import { VideoFetchError } from './engine/youtube.ts';
import type { StoredExtract } from './db-types.ts';
import type { MemeAnalysisRow } from './repository.ts';

/** The two worker stages, each its own queue ('memes.analyse', 'memes.compile'). */
export type MemeStage = 'analyse' | 'compile';

export type StageOutcome = 'completed' | 'failed' | 'cancelled' | 'skipped';

/** A stage stopped before its end: cancelled, recompiled, or its lease taken over. */
export class StageStoppedError extends Error {
  override name = 'StageStoppedError';
  constructor(
    message: string,
    /** 'unconfirmed': renewals never landed in time, and the stage may still be this run's. */
    readonly leaseLost: LeaseLostError['kind'] | null = null,
  ) {
    super(message);
  }
}

/** A stored source video the user deleted (or storage lost) while the analysis waited. */
export class SourceMissingError extends Error {
  override name = 'SourceMissingError';
}

/** The translation key the user sees for a failure; internals stay in the log. */
export function failReasonFor(error: unknown): MemeFailReason {
  if (error instanceof VideoFetchError) return `memes.failures.${error.code}`;
  if (error instanceof VideoAnalysisError) return `memes.failures.${error.code}`;
  if (error instanceof SourceMissingError) return 'memes.failures.source_missing';
  if (error instanceof QuotaExceededError) return 'memes.failures.quota_full';
  if (error instanceof StorageError && error.code === 'not_found') {
    return 'memes.failures.source_missing';
  }
  return 'memes.failures.failed';
}

/** Where an extract's thumbnail is stored. */
export const thumbnailKey = (row: Pick<MemeAnalysisRow, 'id' | 'user_id'>, index: number) =>
  `users/${row.user_id}/memes/${row.id}/${index}.jpg`;

/** Where a downloaded source video is stored (yt-dlp gives mp4 or webm). */
export function downloadKey(
  row: Pick<MemeAnalysisRow, 'id' | 'user_id'>,
  downloadedPath: string,
): { key: string; contentType: `video/${'mp4' | 'webm'}` } {
  const extension = path.extname(downloadedPath) === '.webm' ? 'webm' : 'mp4';
  return {
    key: `users/${row.user_id}/memes/${row.id}/source.${extension}`,
    contentType: `video/${extension}`,
  };
}

/** The compilation's file name, from the source's title (a file name, a YouTube title). */
export function compilationName(title: string | null): string {
  const base = (title ?? '')
    .replace(/\.[^.]+$/, '')
    .replace(/[\\/:*?"<>|\p{Cc}]+/gu, ' ')
    .trim()
    .slice(0, 100);
  return `memes-${base || 'video'}.mp4`;
}

/** The analysis's extracts as stored: all selected at first, scores kept within 0…1. */
export function storedExtracts(
  extracts: VideoAnalysis['extracts'],
  thumbnailKeys: readonly (string | null)[],
): StoredExtract[] {
  return extracts.map((extract, index) => ({
    index,
    startSeconds: extract.startSeconds,
    endSeconds: extract.endSeconds,
    score: Math.min(1, Math.max(0, extract.score)),
    peakSeconds: extract.peakSeconds,
    selected: true,
    thumbnailKey: thumbnailKeys[index] ?? null,
  }));
}

/** The extracts a compilation keeps, and how many seconds of video they make. */
export function compilationPlan(extracts: readonly StoredExtract[] | null): {
  selected: StoredExtract[];
  seconds: number;
} {
  const selected = (extracts ?? []).filter((extract) => extract.selected);
  const seconds = selected.reduce(
    (sum, extract) => sum + Math.max(0, extract.endSeconds - extract.startSeconds),
    0,
  );
  return { selected, seconds };
}

/** The statuses a stage's row is in while that stage is due or running. */
export function stageStatuses(stage: MemeStage): MemeStatus[] {
  return stage === 'analyse' ? ['queued', 'downloading', 'analysing'] : ['compiling'];
}

/**
 * What a worker start queues again for a row a stopped process left unfinished: its stage, at
 * once when it never started, else once its lease can have run out (if a worker is in fact still
 * on it, the claim finds the lease renewed and the job does nothing).
 */
export function recoveryOf(
  status: MemeStatus,
  leaseMs: number,
): { stage: MemeStage; delaySeconds?: number } {
  const delaySeconds = Math.ceil(leaseMs / 1000) + 5;
  if (status === 'compiling') return { stage: 'compile', delaySeconds };
  if (status === 'queued') return { stage: 'analyse' };
  return { stage: 'analyse', delaySeconds };
}
