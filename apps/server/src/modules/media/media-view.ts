import type { Media } from '@cadence/shared/schemas/media';
import type { MediaRow } from './repository.ts';

/** A media row as the API shows it. */
export function toMedia(row: MediaRow): Media {
  return {
    id: row.id,
    kind: row.kind,
    originalName: row.original_name,
    sizeBytes: row.size_bytes,
    durationSeconds: row.duration_seconds,
    width: row.width,
    height: row.height,
    hasAudio: row.has_audio,
    thumbnailUrl: row.thumbnail_key ? `/api/media/${encodeURIComponent(row.id)}/thumbnail` : null,
    fileUrl: `/api/media/${encodeURIComponent(row.id)}/file`,
    createdAt: row.created_at.toISOString(),
  };
}
