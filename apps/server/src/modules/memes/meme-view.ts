import type { Media } from '@cadence/shared/schemas/media';
import type { MemeAnalysis } from '@cadence/shared/schemas/meme';
import { HIGHLIGHT_MIN_SCORE } from './engine/scoring.ts';
import type { MemeAnalysisRow } from './repository.ts';

/** Turns an analysis row into what the API shows (memeAnalysisSchema), with its compilation. */
export function memeAnalysisView(row: MemeAnalysisRow, result: Media | null): MemeAnalysis {
  const base = `/api/memes/${encodeURIComponent(row.id)}`;
  return {
    id: row.id,
    status: row.status,
    progress: row.progress,
    source:
      row.source_type === 'youtube'
        ? { type: 'youtube', url: row.source_url ?? '' }
        : { type: 'media', mediaId: row.source_media_id },
    layout: row.layout,
    title: row.title,
    durationSeconds: row.duration_seconds,
    shorterThanTarget: row.shorter_than_target,
    extracts: (row.extracts ?? []).map((extract) => ({
      index: extract.index,
      startSeconds: extract.startSeconds,
      endSeconds: extract.endSeconds,
      score: extract.score,
      highlight: extract.score >= HIGHLIGHT_MIN_SCORE,
      thumbnailUrl: extract.thumbnailKey ? `${base}/extracts/${extract.index}/thumbnail` : null,
      selected: extract.selected,
    })),
    result,
    failReason: row.fail_reason,
    createdAt: row.created_at.toISOString(),
  };
}
