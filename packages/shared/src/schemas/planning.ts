// API contract of the planning screens: the queue and history (cursor pages), the calendar range,
// editing a pending post, drafts, posting slots and the schedule preview. Messages are
// translation keys, as in schedule.ts.
import { z } from 'zod';
import {
  commercialContentSchema,
  deliverySchema,
  MAX_TITLE_LENGTH,
  MAX_VIDEOS_PER_SCHEDULE,
  overCapSchema,
  postCaptionSchema,
  postSchema,
  postStatusSchema,
  privacyLevelSchema,
  publishTypeSchema,
  spacedIntervalSchema,
  calendarDateSchema,
  instantSchema,
  timeOfDaySchema,
  timeZoneSchema,
  type PostStatus,
  type ScheduleErrorKey,
} from './schedule.ts';

const key = (errorKey: ScheduleErrorKey): { error: ScheduleErrorKey } => ({ error: errorKey });

/** Largest page of the queue and the history. */
export const MAX_PAGE_SIZE = 50;
export const DEFAULT_PAGE_SIZE = 20;
/** Largest calendar range: six weeks (a month view with the days around it). */
export const MAX_CALENDAR_DAYS = 42;
/** Most posts one calendar answer carries (the per-day counts are always complete). */
export const MAX_CALENDAR_POSTS = 1000;
export const DEFAULT_CALENDAR_POSTS = 500;
/** Most weekly posting slots per account. */
export const MAX_SLOTS_PER_ACCOUNT = 100;

/** The queue shows what is still to come; the history what is over. */
export const upcomingStatuses = ['pending', 'publishing'] as const satisfies PostStatus[];
export const historyStatuses = ['completed', 'failed', 'cancelled'] as const satisfies PostStatus[];

/** A comma-separated list of statuses (`status=failed,cancelled`), each one of `allowed`. */
function statusFilter<const TStatus extends PostStatus>(allowed: readonly TStatus[]) {
  const values: readonly string[] = allowed;
  return z
    .string(key('errors.invalidStatusFilter'))
    .max(200, key('errors.invalidStatusFilter'))
    .transform((text) => [...new Set(text.split(',').map((part) => part.trim()))])
    .refine(
      (parts): parts is TStatus[] =>
        parts.length > 0 && parts.every((part) => values.includes(part)),
      key('errors.invalidStatusFilter'),
    )
    .meta({ description: `Comma-separated, among: ${allowed.join(', ')}` });
}

const pageSizeSchema = z.coerce
  .number(key('errors.invalidField'))
  .int(key('errors.invalidField'))
  .min(1, key('errors.invalidField'))
  .max(MAX_PAGE_SIZE, key('errors.invalidField'))
  .default(DEFAULT_PAGE_SIZE);

/** An opaque position in a list, from a previous page's `nextCursor`. */
const cursorSchema = z
  .string(key('errors.invalidCursor'))
  .min(1, key('errors.invalidCursor'))
  .max(200, key('errors.invalidCursor'));

const accountFilterSchema = z.uuid(key('errors.selectTikTokAccount'));

function pageQuery<const TStatus extends PostStatus>(allowed: readonly TStatus[]) {
  return z.object({
    accountId: accountFilterSchema.optional(),
    status: statusFilter(allowed).optional(),
    cursor: cursorSchema.optional(),
    limit: pageSizeSchema,
  });
}

/** GET /api/posts/queue: pending and publishing posts, soonest first. */
export const queueQuerySchema = pageQuery(upcomingStatuses);
export type QueueQuery = z.input<typeof queueQuerySchema>;
/** GET /api/posts/history: completed, failed and cancelled posts, latest due time first. */
export const historyQuerySchema = pageQuery(historyStatuses);
export type HistoryQuery = z.input<typeof historyQuerySchema>;

/** One page; `nextCursor` fetches the next one (null: this was the last). */
export const postPageSchema = z.object({
  posts: z.array(postSchema),
  nextCursor: z.string().nullable(),
});
export type PostPage = z.infer<typeof postPageSchema>;

/** GET /api/posts/calendar: posts due in [from, to) and the per-account counts of each day. */
export const calendarQuerySchema = z
  .object({
    from: instantSchema,
    to: instantSchema,
    /** The zone whose days the counts use; default the user's setting (else UTC). */
    timeZone: timeZoneSchema.optional(),
    accountId: accountFilterSchema.optional(),
    status: statusFilter(postStatusSchema.options).optional(),
    limit: z.coerce
      .number(key('errors.invalidField'))
      .int(key('errors.invalidField'))
      .min(1, key('errors.invalidField'))
      .max(MAX_CALENDAR_POSTS, key('errors.invalidField'))
      .default(DEFAULT_CALENDAR_POSTS),
  })
  .refine(
    ({ from, to }) => {
      const span = Date.parse(to) - Date.parse(from);
      return span > 0 && span <= MAX_CALENDAR_DAYS * 24 * 60 * 60_000;
    },
    {
      ...key('errors.invalidRange'),
      path: ['to'],
      // Only once both ends are instants: a malformed one has its own message.
      when: (payload) =>
        payload.issues.every((issue) => issue.path?.[0] !== 'from' && issue.path?.[0] !== 'to'),
    },
  );
export type CalendarQuery = z.input<typeof calendarQuerySchema>;

/** A post as a calendar chip shows it: the caption cut to 100 characters. */
export const calendarPostSchema = postSchema.pick({
  id: true,
  accountId: true,
  accountUsername: true,
  mediaId: true,
  thumbnailUrl: true,
  title: true,
  dueAt: true,
  status: true,
  note: true,
  /** Read for completed posts only ('direct' otherwise): an inbox draft's badge differs. */
  delivery: true,
});
export type CalendarPost = z.infer<typeof calendarPostSchema>;

/** How many posts an account has on one day of the calendar's zone (whatever the status filter). */
export const calendarDaySchema = z.object({
  date: z.string(),
  /** Null for posts of a deleted account (named by accountUsername). */
  accountId: z.string().nullable(),
  accountUsername: z.string(),
  /** Every post of the day, any status. */
  total: z.int(),
  /** Those that count towards TikTok's daily cap: pending, publishing and completed. */
  towardsCap: z.int(),
});
export type CalendarDay = z.infer<typeof calendarDaySchema>;

export const calendarSchema = z.object({
  posts: z.array(calendarPostSchema),
  /** True when more posts fall in the range than `limit`: narrow it (counts stay complete). */
  truncated: z.boolean(),
  days: z.array(calendarDaySchema),
  timeZone: z.string(),
  /** TIKTOK_DAILY_POST_CAP: Cadence's estimate of TikTok's posts per account per day. */
  dailyCap: z.int(),
});
export type Calendar = z.infer<typeof calendarSchema>;

/** PATCH /api/posts/:id — what may change while a post is pending (at least one field). */
export const editPostSchema = z
  .object(
    {
      title: z
        .string(key('errors.invalidField'))
        .max(MAX_TITLE_LENGTH, key('errors.titleTooLong'))
        .optional(),
      privacyLevel: privacyLevelSchema.optional(),
      allowComment: z.boolean(key('errors.invalidField')).optional(),
      allowDuet: z.boolean(key('errors.invalidField')).optional(),
      allowStitch: z.boolean(key('errors.invalidField')).optional(),
      dueAt: instantSchema.optional(),
    },
    key('errors.invalidField'),
  )
  .strict()
  .refine((edit) => Object.values(edit).some((value) => value !== undefined), {
    ...key('errors.nothingToChange'),
    path: ['_'],
  });
export type EditPost = z.infer<typeof editPostSchema>;

/** POST /api/posts/:id/reschedule — a pending, cancelled or failed post, due again at `dueAt`. */
export const reschedulePostSchema = z.object({ dueAt: instantSchema });

// ——— Drafts ———

/** POST /api/drafts, PUT /api/drafts/:id — the form without a time; everything may be unfinished. */
export const draftBodySchema = z
  .object(
    {
      accountId: z.uuid(key('errors.selectTikTokAccount')).nullable().default(null),
      mediaIds: z
        .array(z.string(key('errors.invalidVideo')).min(1).max(200), key('errors.selectVideo'))
        .max(MAX_VIDEOS_PER_SCHEDULE, key('errors.tooManyVideos')),
      /** One caption per video, in any order; a video without one gets ''. */
      posts: z.array(postCaptionSchema, key('errors.postsMismatch')).default([]),
      privacyLevel: privacyLevelSchema.nullable().default(null),
      allowComment: z.boolean(key('errors.invalidField')).default(false),
      allowDuet: z.boolean(key('errors.invalidField')).default(false),
      allowStitch: z.boolean(key('errors.invalidField')).default(false),
      commercialContent: commercialContentSchema.default({
        enabled: false,
        yourBrand: false,
        brandedContent: false,
      }),
      isAigc: z.boolean(key('errors.invalidField')).default(false),
      delivery: deliverySchema.default('direct'),
    },
    key('errors.invalidField'),
  )
  .superRefine((draft, ctx) => {
    const seen = new Set<string>();
    draft.mediaIds.forEach((mediaId, index) => {
      if (seen.has(mediaId)) {
        ctx.addIssue({
          code: 'custom',
          path: ['mediaIds', index],
          message: 'errors.duplicateVideo',
        });
      }
      seen.add(mediaId);
    });
    if (draft.posts.some((post) => !seen.has(post.mediaId))) {
      ctx.addIssue({ code: 'custom', path: ['posts'], message: 'errors.postsMismatch' });
    }
  });
export type DraftBody = z.input<typeof draftBodySchema>;

export const draftSchema = z.object({
  id: z.string(),
  /** Null when none was chosen yet, or the account was deleted since. */
  accountId: z.string().nullable(),
  videos: z.array(
    z.object({
      mediaId: z.string(),
      title: z.string(),
      thumbnailUrl: z.string().nullable(),
      /** The cover frame chosen, in ms; null: TikTok picks. */
      coverTimestampMs: z.number().int().nullable(),
    }),
  ),
  privacyLevel: privacyLevelSchema.nullable(),
  allowComment: z.boolean(),
  allowDuet: z.boolean(),
  allowStitch: z.boolean(),
  commercialContent: commercialContentSchema,
  isAigc: z.boolean(),
  delivery: deliverySchema,
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type Draft = z.infer<typeof draftSchema>;
export const draftListSchema = z.object({ drafts: z.array(draftSchema) });

/** POST /api/drafts/:id/schedule — the time the draft is given (its contents are the rest). */
export const scheduleDraftSchema = z.object(
  {
    publishType: publishTypeSchema,
    timeZone: timeZoneSchema,
    date: calendarDateSchema.optional(),
    time: timeOfDaySchema.optional(),
    spacedInterval: spacedIntervalSchema.optional(),
    consent: z.literal(true, key('errors.consentRequired')),
    overCap: overCapSchema.optional(),
  },
  key('errors.invalidField'),
);
export type ScheduleDraft = z.infer<typeof scheduleDraftSchema>;

// ——— Posting slots and the queue ———

export const weeklySlotSchema = z.object(
  {
    /** ISO weekday: Monday 1 … Sunday 7. */
    weekday: z
      .int(key('errors.invalidWeekday'))
      .min(1, key('errors.invalidWeekday'))
      .max(7, key('errors.invalidWeekday')),
    /** 'HH:MM' in the user's time zone. */
    time: timeOfDaySchema,
  },
  key('errors.invalidField'),
);

/** PUT /api/accounts/:id/slots — replaces the account's weekly slots (duplicates are merged). */
export const postingSlotsBodySchema = z.object({
  slots: z
    .array(weeklySlotSchema, key('errors.invalidField'))
    .max(MAX_SLOTS_PER_ACCOUNT, key('errors.tooManySlots')),
});

export const postingSlotsSchema = z.object({
  accountId: z.string(),
  /** The zone the slots are read in: the user's setting. */
  timeZone: z.string(),
  slots: z.array(z.object({ weekday: z.int(), time: z.string() })),
  /** The next free slot times (UTC, ISO 8601), up to 10: where 'Add to queue' would put videos. */
  nextFree: z.array(z.iso.datetime()),
  /**
   * The account's estimated daily cap: a slot on a day already holding this many posts is not
   * free ('Add to queue' always skips such days; the form's over-cap choice is for dated plans).
   */
  dailyCap: z.int(),
});
export type PostingSlots = z.infer<typeof postingSlotsSchema>;

// ——— Preview ———

/** POST /api/schedules/preview — the form's timing part, before submitting. */
export const schedulePreviewBodySchema = z.object(
  {
    accountId: z.uuid(key('errors.selectTikTokAccount')),
    mediaIds: z
      .array(z.string(key('errors.invalidVideo')).min(1).max(200), key('errors.selectVideo'))
      .min(1, key('errors.selectVideo'))
      .max(MAX_VIDEOS_PER_SCHEDULE, key('errors.tooManyVideos')),
    publishType: publishTypeSchema,
    timeZone: timeZoneSchema,
    date: calendarDateSchema.optional(),
    time: timeOfDaySchema.optional(),
    spacedInterval: spacedIntervalSchema.optional(),
  },
  key('errors.invalidField'),
);
export type SchedulePreviewBody = z.infer<typeof schedulePreviewBodySchema>;

export const schedulePreviewSchema = z.object({
  posts: z.array(
    z.object({
      mediaId: z.string(),
      /** The slot, UTC ISO 8601. */
      dueAt: z.iso.datetime(),
      /** The ±1 h window randomize may move it in (both equal dueAt when not randomized). */
      earliest: z.iso.datetime(),
      latest: z.iso.datetime(),
      /** Its day in the user's zone ('yyyy-MM-dd'). */
      date: z.string(),
      /** Past the daily cap on its day; suggestedDueAt is the same time on the next day with room. */
      overCap: z.boolean(),
      suggestedDueAt: z.iso.datetime().nullable(),
    }),
  ),
  days: z.array(
    z.object({
      date: z.string(),
      /** The account's posts already planned that day (pending, publishing, completed). */
      existing: z.int(),
      proposed: z.int(),
      cap: z.int(),
      over: z.int(),
    }),
  ),
  dailyCap: z.int(),
  /** The zone of `date` and `days`: the user's setting, else the request's. */
  timeZone: z.string(),
});
export type SchedulePreview = z.infer<typeof schedulePreviewSchema>;
