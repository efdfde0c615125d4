import type { Media } from '@cadence/shared/schemas/media';
import type { Story } from '@cadence/shared/schemas/story';
import type { StoryRow } from './repository.ts';

/**
 * Turns a story row into what the API shows (storySchema): its rendered video, and its sources'
 * names (null once a source is deleted).
 */
export function storyView(
  row: StoryRow,
  media: { result: Media | null; top: Media | null; bottom: Media | null },
): Story {
  return {
    id: row.id,
    status: row.status,
    progress: row.progress,
    topMediaId: row.top_media_id,
    bottomMediaId: row.bottom_media_id,
    topName: media.top?.originalName ?? null,
    bottomName: media.bottom?.originalName ?? null,
    mixBottomAudio: row.mix_bottom_audio,
    resultMedia: media.result,
    failReason: row.fail_reason,
    createdAt: row.created_at.toISOString(),
  };
}
