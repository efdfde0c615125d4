// API contract for schedules and posts, shared by the server (validation, responses) and the web
// form. Every issue message is a translation key ('errors.selectVideo'), never prose: the web
// shows the text for the key in the user's language.
import { z } from 'zod';
import type { PlanErrorCode } from '../schedule/planner.ts';
import { isSupportedDate, isSupportedInstant, parseTime } from '../schedule/planner.ts';
import { privacyLevels } from './account.ts';
import { timeZoneSchema } from './time-zone.ts';

export { timeZoneSchema };

/** Translation keys this file can put in an issue's `message`; each needs a fr/en string. */
export const scheduleErrorKeys = [
  'errors.selectVideo',
  'errors.tooManyVideos',
  'errors.duplicateVideo',
  'errors.invalidVideo',
  'errors.selectTikTokAccount',
  'errors.selectPublishType',
  'errors.invalidTimeZone',
  'errors.dateRequired',
  'errors.invalidDate',
  'errors.timeRequired',
  'errors.invalidTime',
  'errors.spacedIntervalRequired',
  'errors.invalidIntervalCount',
  'errors.invalidIntervalValue',
  'errors.invalidIntervalUnit',
  'errors.invalidField',
  'errors.postsMismatch',
  'errors.titleTooLong',
  'errors.invalidCoverTime',
  'errors.selectPrivacy',
  'errors.commercialContentChoice',
  'errors.brandedContentPrivate',
  'errors.consentRequired',
  'errors.dateInPast',
  'errors.dateTooFar',
  'errors.invalidCursor',
  'errors.invalidRange',
  'errors.invalidStatusFilter',
  'errors.nothingToChange',
  'errors.invalidWeekday',
  'errors.tooManySlots',
] as const;
export type ScheduleErrorKey = (typeof scheduleErrorKeys)[number];

/** Most videos one schedule request may carry. */
export const MAX_VIDEOS_PER_SCHEDULE = 50;
/** TikTok's caption limit (post_info.title). */
export const MAX_TITLE_LENGTH = 2200;
/** TikTok's longest video (10 min): no cover frame can lie beyond it. */
export const MAX_COVER_TIMESTAMP_MS = 600_000;
/** Largest spacing value accepted, whatever the unit. */
export const MAX_INTERVAL_VALUE = 1000;

/** The key as an issue message, typed so a key missing from the list does not compile. */
const key = (errorKey: ScheduleErrorKey): { error: ScheduleErrorKey } => ({ error: errorKey });

export const publishTypeSchema = z.enum(
  ['immediate', 'scheduled', 'spaced'],
  key('errors.selectPublishType'),
);
export type PublishType = z.infer<typeof publishTypeSchema>;

export const intervalUnitSchema = z.enum(
  ['minutes', 'hours', 'days'],
  key('errors.invalidIntervalUnit'),
);
export type IntervalUnit = z.infer<typeof intervalUnitSchema>;

export const privacyLevelSchema = z.enum(privacyLevels, key('errors.selectPrivacy'));
export type PrivacyLevel = z.infer<typeof privacyLevelSchema>;

export const postStatusSchema = z.enum([
  'pending',
  'publishing',
  'completed',
  'failed',
  'cancelled',
]);
export type PostStatus = z.infer<typeof postStatusSchema>;

/** 'HH:MM', 24-hour. */
export const timeOfDaySchema = z
  .string(key('errors.invalidTime'))
  .refine((value) => parseTime(value) !== null, key('errors.invalidTime'));

/** 'yyyy-MM-dd', a date that exists. */
export const calendarDateSchema = z
  .string(key('errors.invalidDate'))
  .refine(isSupportedDate, key('errors.invalidDate'));

/** An instant with its offset ('2026-03-01T09:00:00+01:00' or '…Z'), within the supported years. */
export const instantSchema = z.iso
  .datetime({ offset: true, ...key('errors.invalidDate') })
  .refine((value) => isSupportedInstant(Date.parse(value)), key('errors.invalidDate'));

const mediaIdSchema = z
  .string(key('errors.invalidVideo'))
  .min(1, key('errors.invalidVideo'))
  .max(200, key('errors.invalidVideo'));
const flagSchema = z.boolean(key('errors.invalidField'));

/** Spaced publishing; the form's defaults are count 1, value 1, hours, 09:00, randomize off. */
export const spacedIntervalSchema = z.object(
  {
    // Larger than the number of videos is allowed: the planner reduces it (as the original did).
    count: z
      .int(key('errors.invalidIntervalCount'))
      .min(1, key('errors.invalidIntervalCount'))
      .max(MAX_VIDEOS_PER_SCHEDULE, key('errors.invalidIntervalCount')),
    value: z
      .int(key('errors.invalidIntervalValue'))
      .min(1, key('errors.invalidIntervalValue'))
      .max(MAX_INTERVAL_VALUE, key('errors.invalidIntervalValue')),
    unit: intervalUnitSchema,
    startTime: timeOfDaySchema,
    /** Day of the first batch ('yyyy-MM-dd', the form's default: today); omitted: the next startTime. */
    startDate: calendarDateSchema.optional(),
    // Pro only: the server refuses it for other users (not a shape rule, so not checked here).
    randomizeTime: flagSchema,
  },
  key('errors.spacedIntervalRequired'),
);
export type SpacedIntervalInput = z.infer<typeof spacedIntervalSchema>;

export const postCaptionSchema = z.object(
  {
    mediaId: mediaIdSchema,
    title: z.string(key('errors.invalidField')).max(MAX_TITLE_LENGTH, key('errors.titleTooLong')),
    /**
     * The frame the creator picked as cover, in ms from the start (post_info.video_cover_timestamp_ms);
     * omitted: TikTok picks. The server also checks it against the video's duration.
     */
    coverTimestampMs: z
      .int(key('errors.invalidCoverTime'))
      .min(0, key('errors.invalidCoverTime'))
      .max(MAX_COVER_TIMESTAMP_MS, key('errors.invalidCoverTime'))
      .optional(),
  },
  key('errors.postsMismatch'),
);

export const commercialContentSchema = z.object(
  {
    enabled: flagSchema,
    yourBrand: flagSchema,
    brandedContent: flagSchema,
  },
  key('errors.invalidField'),
);
export type CommercialContent = z.infer<typeof commercialContentSchema>;

// The cross-field rules below read these as arrays/objects; elsewhere they only compare values.
const fieldsTheRulesTraverse = new Set<PropertyKey>(['mediaIds', 'posts', 'commercialContent']);

/**
 * Zod skips refinements after any aborting issue (a wrong type, an unknown enum value). The form
 * should show every problem at once (privacy not chosen AND date missing), so the rules run unless
 * a field they traverse is malformed.
 */
function rulesCanRun(payload: { issues: readonly { path?: PropertyKey[]; continue?: boolean }[] }) {
  return payload.issues.every((issue) => {
    if (issue.continue === true) return true;
    const field = issue.path?.[0];
    return field !== undefined && !fieldsTheRulesTraverse.has(field);
  });
}

export const overCapSchema = z.enum(['keep', 'postpone'], key('errors.invalidField'));
export type OverCap = z.infer<typeof overCapSchema>;

/**
 * How a post reaches TikTok: 'direct' publishes it (video.publish); 'inbox' sends it to the
 * creator's TikTok inbox as a draft they finish in the app (video.upload; TikTok allows 5
 * pending inbox shares per creator per 24 h).
 */
export const deliverySchema = z.enum(['direct', 'inbox'], key('errors.invalidField'));
export type Delivery = z.infer<typeof deliverySchema>;

/** What every way of scheduling carries: the videos, their captions, the TikTok settings, consent. */
const scheduleContentShape = {
  accountId: z.uuid(key('errors.selectTikTokAccount')),
  mediaIds: z
    .array(mediaIdSchema, key('errors.selectVideo'))
    .min(1, key('errors.selectVideo'))
    .max(MAX_VIDEOS_PER_SCHEDULE, key('errors.tooManyVideos')),
  posts: z.array(postCaptionSchema, key('errors.postsMismatch')),
  /**
   * Required for direct posts; an inbox draft has none (TikTok's inbox init takes no post_info:
   * the creator sets it in the TikTok app), and one sent with it is ignored.
   */
  privacyLevel: privacyLevelSchema.optional(),
  allowComment: flagSchema,
  allowDuet: flagSchema,
  allowStitch: flagSchema,
  commercialContent: commercialContentSchema,
  /** TikTok's 'AI-generated content' label (post_info.is_aigc); omitted: false. */
  isAigc: flagSchema.optional(),
  /** Unset: 'direct'. */
  delivery: deliverySchema.optional(),
  // TikTok requires explicit consent (Music Usage Confirmation) before anything is posted.
  consent: z.literal(true, key('errors.consentRequired')),
};

type IssueSink = (path: PropertyKey[], message: ScheduleErrorKey) => void;

/** The cross-field rules of the content: no video twice, one caption each, TikTok's disclosure rules. */
function checkContent(
  request: {
    mediaIds: string[];
    posts: { mediaId: string }[];
    privacyLevel?: PrivacyLevel | undefined;
    delivery?: Delivery | undefined;
    commercialContent: CommercialContent;
  },
  issue: IssueSink,
): void {
  if (request.delivery !== 'inbox' && request.privacyLevel === undefined) {
    issue(['privacyLevel'], 'errors.selectPrivacy');
  }
  const seen = new Set<string>();
  request.mediaIds.forEach((mediaId, index) => {
    if (seen.has(mediaId)) issue(['mediaIds', index], 'errors.duplicateVideo');
    seen.add(mediaId);
  });

  // One caption per selected video, no more, no fewer.
  const captioned = request.posts.map((post) => post.mediaId);
  const sameVideos =
    captioned.length === seen.size &&
    new Set(captioned).size === captioned.length &&
    captioned.every((mediaId) => seen.has(mediaId));
  if (!sameVideos) issue(['posts'], 'errors.postsMismatch');

  const { enabled, yourBrand, brandedContent } = request.commercialContent;
  if (enabled && !yourBrand && !brandedContent) {
    issue(['commercialContent'], 'errors.commercialContentChoice');
  }
  // TikTok: branded content cannot be private (an inbox draft's privacy is set in TikTok's app).
  if (
    enabled &&
    brandedContent &&
    request.delivery !== 'inbox' &&
    request.privacyLevel === 'SELF_ONLY'
  ) {
    issue(['privacyLevel'], 'errors.brandedContentPrivate');
  }
}

/** Body of POST /api/schedules. */
export const createScheduleSchema = z
  .object(
    {
      ...scheduleContentShape,
      publishType: publishTypeSchema,
      timeZone: timeZoneSchema,
      date: calendarDateSchema.optional(),
      time: timeOfDaySchema.optional(),
      spacedInterval: spacedIntervalSchema.optional(),
      /**
       * Posts beyond the account's daily cap on their day: 'keep' them (default) or 'postpone'
       * each to the same time on the next day with room (what the preview suggested).
       */
      overCap: overCapSchema.optional(),
      /** The draft this schedule comes from: deleted with the schedule's creation (404 if gone). */
      draftId: z.uuid(key('errors.invalidField')).optional(),
    },
    key('errors.invalidField'),
  )
  .superRefine(
    (request, ctx) => {
      const issue: IssueSink = (path, message) => ctx.addIssue({ code: 'custom', path, message });
      checkContent(request, issue);
      if (request.publishType === 'scheduled') {
        if (request.date === undefined) issue(['date'], 'errors.dateRequired');
        if (request.time === undefined) issue(['time'], 'errors.timeRequired');
      }
      if (request.publishType === 'spaced' && request.spacedInterval === undefined) {
        issue(['spacedInterval'], 'errors.spacedIntervalRequired');
      }
    },
    { when: rulesCanRun },
  );
export type CreateScheduleInput = z.input<typeof createScheduleSchema>;
export type CreateScheduleRequest = z.infer<typeof createScheduleSchema>;

/**
 * Body of POST /api/schedules/queue ('Add to queue'): the content without a time; each video goes
 * to the account's next free posting slot. The slots are read in the user's time zone setting, or
 * in `timeZone` (the browser's) when the user has none.
 */
export const addToQueueSchema = z
  .object({ ...scheduleContentShape, timeZone: timeZoneSchema }, key('errors.invalidField'))
  .superRefine(
    (request, ctx) =>
      checkContent(request, (path, message) => ctx.addIssue({ code: 'custom', path, message })),
    { when: rulesCanRun },
  );
export type AddToQueueInput = z.input<typeof addToQueueSchema>;
export type AddToQueueRequest = z.infer<typeof addToQueueSchema>;

/** planSchedule's refusals as form fields → keys, for a validation_failed answer's `fields`. */
export const planErrorFields: Record<PlanErrorCode, Record<string, ScheduleErrorKey>> = {
  date_in_past: { date: 'errors.dateInPast' },
  missing_date_time: { date: 'errors.dateRequired', time: 'errors.timeRequired' },
  missing_spaced_interval: { spacedInterval: 'errors.spacedIntervalRequired' },
  start_in_past: { 'spacedInterval.startDate': 'errors.dateInPast' },
  // A scheduled date, or a spaced plan whose last slots its interval pushes too far.
  beyond_supported_dates: {
    date: 'errors.dateTooFar',
    'spacedInterval.value': 'errors.dateTooFar',
  },
};

/** One post as the API returns it (a video of a schedule, with its own due time and status). */
export const postSchema = z.object({
  id: z.string(),
  scheduleId: z.string(),
  /** Null once the account was deleted: the post stays in the history under accountUsername. */
  accountId: z.string().nullable(),
  accountUsername: z.string(),
  mediaId: z.string(),
  thumbnailUrl: z.string().nullable(),
  title: z.string(),
  /** UTC, ISO 8601. */
  dueAt: z.iso.datetime(),
  randomized: z.boolean(),
  jitterMinutes: z.int(),
  status: postStatusSchema,
  /** TikTok's fail_reason or our own code, for failed posts. */
  failReason: z.string().nullable(),
  tiktokPostId: z.string().nullable(),
  tiktokPostUrl: z.string().nullable(),
  createdAt: z.iso.datetime(),
  /** The IANA zone the schedule was made in (its date and time were read in it). */
  timeZone: z.string(),
  /** Null for inbox drafts: the creator sets it in the TikTok app. */
  privacyLevel: z.string().nullable(),
  /** 'inbox': sent to the creator's TikTok inbox as a draft ('completed' once it is there). */
  delivery: deliverySchema,
  allowComment: z.boolean(),
  allowDuet: z.boolean(),
  allowStitch: z.boolean(),
  /**
   * Why Cadence changed the post on its own, as a translation key (e.g. postponed because the
   * account reached TikTok's daily cap); null when it did not. Cleared when the user changes it.
   */
  note: z.string().nullable(),
  /** The due time before Cadence postponed it (UTC, ISO 8601); null when not postponed. */
  postponedFrom: z.iso.datetime().nullable(),
  /**
   * When it was published, failed or was cancelled (UTC, ISO 8601): the history's order. Null
   * while it is pending or publishing.
   */
  outcomeAt: z.iso.datetime().nullable(),
});
export type Post = z.infer<typeof postSchema>;
