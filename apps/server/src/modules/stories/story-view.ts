import type { Media } from '@cadence/shared/schemas/media';
import type { Story } from '@cadence/shared/schemas/story';
import type { StoryRow } from './repository.ts';

/** Turns a story row into what the API shows (storySchema), with its rendered video. */
export function storyView(row: StoryRow, resultMedia: Media | null): Story {
  return {
    id: row.id,
    status: row.status,
    progress: row.progress,
    topMediaId: row.top_media_id,
    bottomMediaId: row.bottom_media_id,
    mixBottomAudio: row.mix_bottom_audio,
    resultMedia,
    failReason: row.fail_reason,
    createdAt: row.created_at.toISOString(),
  };
}
