import { z } from 'zod';
import { mediaSchema } from './media.ts';

export const storyStatuses = ['queued', 'rendering', 'completed', 'failed', 'cancelled'] as const;
export type StoryStatus = (typeof storyStatuses)[number];

/** Statuses that still hold a render slot (and can be cancelled). */
export const activeStoryStatuses: readonly StoryStatus[] = ['queued', 'rendering'];

/** At most this many top (and bottom) videos per request: one story per top video. */
export const MAX_STORY_VIDEOS_PER_PANEL = 20;
/** At most this many stories queued or rendering per user at any time. */
export const MAX_ACTIVE_STORIES_PER_USER = 20;

/** Why a render failed: a translation key under `stories.failures.*`. */
export const storyFailReasons = [
  'stories.failures.renderFailed',
  'stories.failures.sourceMissing',
  'stories.failures.internal',
  'stories.failures.quotaFull',
  /** An unexpected error stopped it MAX_JOB_ATTEMPTS times in a row: not retried again. */
  'stories.failures.crashed',
] as const;
export type StoryFailReason = (typeof storyFailReasons)[number];

const mediaIds = z
  .array(z.string().min(1).max(200), { error: 'errors.selectVideo' })
  .min(1, 'errors.selectVideo')
  .max(MAX_STORY_VIDEOS_PER_PANEL);

/** POST /api/stories: one story per top video, bottom videos used in turn. */
export const createStoriesSchema = z.object({
  topMediaIds: mediaIds,
  bottomMediaIds: mediaIds,
  mixBottomAudio: z.boolean().default(false),
});
export type CreateStoriesInput = z.input<typeof createStoriesSchema>;

/** A split-screen story (top clip over bottom clip, 1080×1920) and its render state. */
export const storySchema = z.object({
  id: z.string(),
  status: z.enum(storyStatuses),
  /** Share rendered, 0..1; 1 once completed. */
  progress: z.number().min(0).max(1),
  /** Null once the source video was deleted. */
  topMediaId: z.string().nullable(),
  bottomMediaId: z.string().nullable(),
  /** The sources' file names as uploaded, to tell stories apart; null once deleted. */
  topName: z.string().nullable(),
  bottomName: z.string().nullable(),
  mixBottomAudio: z.boolean(),
  /** The rendered video, once completed. */
  resultMedia: mediaSchema.nullable(),
  failReason: z.enum(storyFailReasons).nullable(),
  createdAt: z.string(),
});
export type Story = z.infer<typeof storySchema>;

export const storyListSchema = z.object({ stories: z.array(storySchema) });
