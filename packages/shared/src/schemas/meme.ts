import { z } from 'zod';
import { MAX_YOUTUBE_URL_LENGTH, parseYouTubeUrl } from '../youtube-url.ts';
import { mediaSchema } from './media.ts';

/**
 * A meme analysis (Pro): a YouTube link or an uploaded video → scored extracts → a one-minute
 * 1080×1920 compilation. queued → downloading (links only) → analysing → compiling → completed;
 * any active status can become failed or cancelled; completed (or failed while compiling) can go
 * back to compiling when the user recompiles with other extracts or another layout.
 */
export const memeStatuses = [
  'queued',
  'downloading',
  'analysing',
  'compiling',
  'completed',
  'failed',
  'cancelled',
] as const;
export type MemeStatus = (typeof memeStatuses)[number];

/** Statuses with work still to do (they can be cancelled and count against the user's limit). */
export const activeMemeStatuses = ['queued', 'downloading', 'analysing', 'compiling'] as const;
export type ActiveMemeStatus = (typeof activeMemeStatuses)[number];

export function isActiveMemeStatus(status: MemeStatus): status is ActiveMemeStatus {
  return (activeMemeStatuses as readonly MemeStatus[]).includes(status);
}

/** 'crop': centre 9:16 crop; 'blur': the whole frame over a blurred copy of itself. */
export const memeLayouts = ['crop', 'blur'] as const;
export type MemeLayout = (typeof memeLayouts)[number];

/** At most this many analyses queued or running per user. */
export const MAX_ACTIVE_MEME_ANALYSES_PER_USER = 3;
/** Target length of a compilation, in seconds. */
export const MEME_COMPILATION_SECONDS = 60;

/** Why an analysis failed: a translation key under `memes.failures.*`. */
export const memeFailReasons = [
  'memes.failures.downloader_missing',
  'memes.failures.unavailable',
  'memes.failures.too_long',
  'memes.failures.network',
  'memes.failures.no_video_stream',
  'memes.failures.source_missing',
  'memes.failures.failed',
  'memes.failures.quota_full',
  /** An unexpected error stopped it MAX_JOB_ATTEMPTS times in a row: not retried again. */
  'memes.failures.crashed',
] as const;
export type MemeFailReason = (typeof memeFailReasons)[number];

/**
 * A YouTube video link, stored as its canonical watch URL (see youtube-url.ts: the allow-list of
 * hosts and the forms of link accepted). Every refusal has the same key, whatever the host.
 */
const youtubeUrl = z
  .string({ error: 'memes.errors.invalidUrl' })
  .max(MAX_YOUTUBE_URL_LENGTH, 'memes.errors.invalidUrl')
  .transform((value, context) => {
    const link = parseYouTubeUrl(value);
    if (link) return link.url;
    context.addIssue({ code: 'custom', message: 'memes.errors.invalidUrl' });
    return z.NEVER;
  });

export const memeSourceInputSchema = z.discriminatedUnion(
  'type',
  [
    z.object({ type: z.literal('youtube'), url: youtubeUrl }),
    z.object({
      type: z.literal('media'),
      mediaId: z.string({ error: 'errors.selectVideo' }).min(1, 'errors.selectVideo').max(200),
    }),
  ],
  { error: 'errors.invalid_value' },
);

/** POST /api/memes */
export const createMemeAnalysisSchema = z.object({
  source: memeSourceInputSchema,
  layout: z.enum(memeLayouts).default('crop'),
});
export type CreateMemeAnalysisInput = z.input<typeof createMemeAnalysisSchema>;

/** POST /api/memes/:id/recompile: only the compilation runs again. */
export const recompileMemeSchema = z.object({
  selectedIndexes: z
    .array(z.number().int().min(0).max(1000), { error: 'memes.errors.selectExtract' })
    .min(1, 'memes.errors.selectExtract')
    .max(1000),
  layout: z.enum(memeLayouts),
});
export type RecompileMemeInput = z.infer<typeof recompileMemeSchema>;

export const memeSourceSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('youtube'), url: z.string() }),
  /** mediaId is null once the uploaded video was deleted. */
  z.object({ type: z.literal('media'), mediaId: z.string().nullable() }),
]);
export type MemeSource = z.infer<typeof memeSourceSchema>;

/** One highlight chosen by the analysis. */
export const memeExtractSchema = z.object({
  index: z.number().int().min(0),
  startSeconds: z.number().min(0),
  endSeconds: z.number().min(0),
  /** 0..1: how much the moment stands out from its surroundings. */
  score: z.number().min(0).max(1),
  /**
   * A detected highlight (its score stands out). False: a calm stretch that only fills the
   * minute when the video has too few highlights; never presented as a detected moment.
   */
  highlight: z.boolean(),
  /** Same-origin URL served with the session cookie; null when no frame could be grabbed. */
  thumbnailUrl: z.string().nullable(),
  /** Part of the current (or next) compilation. */
  selected: z.boolean(),
});
export type MemeExtract = z.infer<typeof memeExtractSchema>;

export const memeAnalysisSchema = z.object({
  id: z.string(),
  status: z.enum(memeStatuses),
  /** Share of the current stage done, 0..1. */
  progress: z.number().min(0).max(1),
  source: memeSourceSchema,
  layout: z.enum(memeLayouts),
  /** The YouTube title or the uploaded file's name; null until known. */
  title: z.string().nullable(),
  durationSeconds: z.number().nullable(),
  /** The video is shorter than a minute: the compilation is the whole video. */
  shorterThanTarget: z.boolean(),
  extracts: z.array(memeExtractSchema),
  /** The current compilation (null until the first one is done). */
  result: mediaSchema.nullable(),
  failReason: z.enum(memeFailReasons).nullable(),
  createdAt: z.string(),
});
export type MemeAnalysis = z.infer<typeof memeAnalysisSchema>;

export const memeAnalysisListSchema = z.object({ analyses: z.array(memeAnalysisSchema) });
