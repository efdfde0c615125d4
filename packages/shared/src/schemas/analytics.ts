// API contract for analytics (issue 14): the synced TikTok history of the user's accounts, best
// times to post, and per-post metrics. Issue messages are translation keys, as everywhere.
import { z } from 'zod';
import { isSupportedDate, isValidTimeZone } from '../schedule/planner.ts';
import { messageKey } from '../translation-key.ts';

export const analyticsPeriods = ['7d', '28d', '90d', 'custom'] as const;
export type AnalyticsPeriod = (typeof analyticsPeriods)[number];

/** Longest custom range, in days (a year and a day: a leap year fits). */
export const MAX_CUSTOM_RANGE_DAYS = 366;

const dateSchema = z.string().refine(isSupportedDate, { error: messageKey('errors.invalidDate') });
const timeZoneSchema = z
  .string()
  .max(100)
  .refine(isValidTimeZone, { error: messageKey('errors.invalidTimeZone') });

function dayNumber(date: string): number {
  return Date.parse(`${date}T00:00:00Z`) / 86_400_000;
}

/**
 * Which history to read: one analytics account (or all of them), a period (7/28/90 days ending
 * today, or a custom inclusive range), in the browser's time zone (days start at its midnight).
 */
export const analyticsQuerySchema = z
  .object({
    accountId: z.uuid({ error: messageKey('analytics.errors.unknownAccount') }).optional(),
    period: z
      .enum(analyticsPeriods, { error: messageKey('analytics.errors.invalidPeriod') })
      .default('28d'),
    from: dateSchema.optional(),
    to: dateSchema.optional(),
    timeZone: timeZoneSchema.default('UTC'),
  })
  .superRefine((query, context) => {
    if (query.period !== 'custom') return;
    if (query.from === undefined || query.to === undefined) {
      context.addIssue({
        code: 'custom',
        path: [query.from === undefined ? 'from' : 'to'],
        message: messageKey('analytics.errors.rangeRequired'),
      });
      return;
    }
    const days = dayNumber(query.to) - dayNumber(query.from) + 1;
    if (days < 1) {
      context.addIssue({
        code: 'custom',
        path: ['to'],
        message: messageKey('analytics.errors.rangeOrder'),
      });
    } else if (days > MAX_CUSTOM_RANGE_DAYS) {
      context.addIssue({
        code: 'custom',
        path: ['from'],
        message: messageKey('analytics.errors.rangeTooLong'),
      });
    }
  });
export type AnalyticsQuery = z.output<typeof analyticsQuerySchema>;
export type AnalyticsQueryInput = z.input<typeof analyticsQuerySchema>;

export const analyticsExportQuerySchema = analyticsQuerySchema.and(
  z.object({
    table: z
      .enum(['daily', 'videos'], { error: messageKey('analytics.errors.invalidTable') })
      .default('daily'),
  }),
);

export const bestTimesQuerySchema = z.object({
  accountId: z.uuid({ error: messageKey('analytics.errors.unknownAccount') }).optional(),
  timeZone: timeZoneSchema.default('UTC'),
});

/** A TikTok user whose history Cadence keeps; `connected` false once its card was deleted or lost its grant. */
export const analyticsAccountSchema = z.object({
  id: z.uuid(),
  username: z.string(),
  displayName: z.string().nullable(),
  avatarUrl: z.string().nullable(),
  /** The account card it belongs to, null once deleted (the history stays). */
  accountId: z.uuid().nullable(),
  connected: z.boolean(),
  videoCount: z.number().int(),
  lastSyncedAt: z.iso.datetime().nullable(),
});
export type AnalyticsAccount = z.infer<typeof analyticsAccountSchema>;
export const analyticsAccountListSchema = z.object({ accounts: z.array(analyticsAccountSchema) });

export const analyticsDaySchema = z.object({
  /** 'yyyy-MM-dd' in the query's time zone. */
  date: z.string(),
  /** At the end of the day; null when TikTok gave no totals (no user.info.stats, or no reading). */
  followers: z.number().nullable(),
  /** Gained that day. */
  views: z.number(),
  likes: z.number(),
  comments: z.number(),
  shares: z.number(),
  /** Videos posted that day, and their views to date (known from the first sync on). */
  postedVideos: z.number().int(),
  postedVideoViews: z.number(),
});
export type AnalyticsDay = z.infer<typeof analyticsDaySchema>;

export const analyticsVideoSchema = z.object({
  id: z.uuid(),
  videoId: z.string(),
  accountUsername: z.string(),
  title: z.string(),
  coverImageUrl: z.string().nullable(),
  shareUrl: z.string().nullable(),
  postedAt: z.iso.datetime(),
  views: z.number(),
  likes: z.number(),
  comments: z.number(),
  shares: z.number(),
  /** (likes + comments + shares) / views; null without views. */
  engagementRate: z.number().nullable(),
  /** The Cadence post that published it, if any. */
  postId: z.uuid().nullable(),
});
export type AnalyticsVideo = z.infer<typeof analyticsVideoSchema>;

export const analyticsOverviewSchema = z.object({
  range: z.object({ from: z.string(), to: z.string(), days: z.number().int() }),
  totals: z.object({
    followers: z.number().nullable(),
    followersChange: z.number().nullable(),
    views: z.number(),
    likes: z.number(),
    comments: z.number(),
    shares: z.number(),
    engagementRate: z.number().nullable(),
    videosPosted: z.number().int(),
  }),
  days: z.array(analyticsDaySchema),
  topVideos: z.array(analyticsVideoSchema),
});
export type AnalyticsOverview = z.infer<typeof analyticsOverviewSchema>;

/** One point of a video's views over time. */
export const viewsPointSchema = z.object({ at: z.iso.datetime(), views: z.number() });

export const postMetricsSchema = z.object({
  postId: z.uuid(),
  /** Null until the sync has found the post's video on TikTok. */
  video: analyticsVideoSchema.nullable(),
  /** Views over time, oldest first (empty until synced). */
  series: z.array(viewsPointSchema),
});
export type PostMetrics = z.infer<typeof postMetricsSchema>;

/** Many posts at once (the queue and history lists): their counts and a short views sparkline. */
export const postMetricsQuerySchema = z.object({
  ids: z
    .string()
    .max(37 * 100)
    .transform((value) => value.split(',').filter((id) => id.length > 0))
    .pipe(z.array(z.uuid()).min(1).max(100)),
});
export const postMetricsListSchema = z.object({
  posts: z.array(
    z.object({
      postId: z.uuid(),
      views: z.number(),
      likes: z.number(),
      comments: z.number(),
      shares: z.number(),
      /** Up to 24 view counts, oldest first. */
      sparkline: z.array(z.number()),
    }),
  ),
});
export type PostMetricsList = z.infer<typeof postMetricsListSchema>;

export const bestTimeCellSchema = z.object({
  /** 0 = Monday … 6 = Sunday. */
  weekday: z.number().int().min(0).max(6),
  hour: z.number().int().min(0).max(23),
  posts: z.number().int(),
  /** Views at 24 h relative to the account's median (1 = typical); null without any post nearby. */
  score: z.number().nullable(),
  /** 0–1: how much the score rests on this cell's and its neighbours' own posts. */
  confidence: z.number(),
});
export const bestTimeSlotSchema = z.object({
  weekday: z.number().int().min(0).max(6),
  hour: z.number().int().min(0).max(23),
  score: z.number(),
  confidence: z.number(),
  /** The next occurrence of the slot, as an instant. */
  nextAt: z.iso.datetime(),
});
export type BestTimeSlot = z.infer<typeof bestTimeSlotSchema>;

export const bestTimesSchema = z.object({
  status: z.enum(['ok', 'not_enough_data']),
  /** Videos with a usable 24-hour (or settled) view count, and how many are needed. */
  videosAnalysed: z.number().int(),
  minimumVideos: z.number().int(),
  timeZone: z.string(),
  cells: z.array(bestTimeCellSchema),
  /** Best first; empty while there is not enough data. */
  slots: z.array(bestTimeSlotSchema),
});
export type BestTimes = z.infer<typeof bestTimesSchema>;
