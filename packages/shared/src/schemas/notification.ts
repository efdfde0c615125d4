import { z } from 'zod';
import { messageKey, type TranslationKey } from '../translation-key.ts';

/** What a person hears about, in the order /settings lists them. */
export const notificationTypes = [
  'post_failed',
  'account_reconnect_needed',
  'token_refresh_failed',
  'post_postponed',
  'post_published',
  'post_sent_to_inbox',
  'story_ready',
  'compilation_ready',
] as const;
export const notificationTypeSchema = z.enum(notificationTypes, {
  message: messageKey('settings.errors.unknownNotificationType'),
});
export type NotificationType = z.infer<typeof notificationTypeSchema>;

/** Mailed unless the person says otherwise: what needs them to act. Successes stay in the app. */
export const defaultEmailTypes: readonly NotificationType[] = [
  'post_failed',
  'account_reconnect_needed',
  'token_refresh_failed',
];

/** What a notification's text needs; every field optional, each type uses its own. */
export const notificationDataSchema = z.object({
  postId: z.string().optional(),
  /** The TikTok handle, without '@'. */
  account: z.string().optional(),
  /** The post's caption, on one line and cut (notificationCaption); absent when it has none. */
  caption: z.string().optional(),
  /** posts.fail_reason (a publishFailReasons entry, or older). */
  failReason: z.string().nullable().optional(),
  /** Postponed to (ISO). */
  dueAt: z.string().optional(),
  storyId: z.string().optional(),
  analysisId: z.string().optional(),
});
export type NotificationData = z.infer<typeof notificationDataSchema>;

/** Longest caption a notification quotes, in characters (then cut with '…'). */
export const NOTIFICATION_CAPTION_LENGTH = 60;

/**
 * A post's caption as a notification quotes it, to say which post it is about: on one line, cut
 * at NOTIFICATION_CAPTION_LENGTH characters; undefined for a blank caption.
 */
export function notificationCaption(title: string): string | undefined {
  const line = title.replace(/\s+/g, ' ').trim();
  if (line === '') return undefined;
  // Characters as people see them: an emoji of several code points is never cut in two.
  const characters = Array.from(
    new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(line),
    (part) => part.segment,
  );
  return characters.length <= NOTIFICATION_CAPTION_LENGTH
    ? line
    : `${characters
        .slice(0, NOTIFICATION_CAPTION_LENGTH - 1)
        .join('')
        .trimEnd()}…`;
}

/** The sentences that quote the post's caption, for the types about one post. */
const captionedSentences: Partial<Record<NotificationType, TranslationKey>> = {
  post_published: 'settings.notifications.events.post_published_caption',
  post_sent_to_inbox: 'settings.notifications.events.post_sent_to_inbox_caption',
  post_failed: 'settings.notifications.events.post_failed_caption',
  post_postponed: 'settings.notifications.events.post_postponed_caption',
};

/** The key of a notification's sentence: the one that quotes the caption when it is known. */
export function notificationSentenceKey(
  type: NotificationType,
  data: NotificationData,
): TranslationKey {
  const captioned = data.caption === undefined ? undefined : captionedSentences[type];
  return captioned ?? `settings.notifications.events.${type}`;
}

export const notificationSchema = z.object({
  id: z.string(),
  type: notificationTypeSchema,
  data: notificationDataSchema,
  createdAt: z.string(),
  read: z.boolean(),
});
export type Notification = z.infer<typeof notificationSchema>;

/** GET /api/notifications — the latest 50 and how many are unread. */
export const notificationListSchema = z.object({
  notifications: z.array(notificationSchema),
  unread: z.number().int().nonnegative(),
});
export type NotificationList = z.infer<typeof notificationListSchema>;

/** GET/PUT /api/notifications/settings — which types are mailed, and whether as a daily digest. */
export const notificationSettingsSchema = z
  .object({
    emailTypes: z
      .array(notificationTypeSchema)
      .max(notificationTypes.length)
      .refine((types) => new Set(types).size === types.length, {
        message: messageKey('settings.errors.unknownNotificationType'),
      }),
    digest: z.boolean(),
  })
  .strict();
export type NotificationSettings = z.infer<typeof notificationSettingsSchema>;

/** POST /api/notifications/unsubscribe?token=… — the token of an email's unsubscribe link (RFC 8058: mail clients POST to the link itself). */
export const unsubscribeQuerySchema = z
  .object({
    token: z
      .string({ message: messageKey('settings.errors.badUnsubscribeLink') })
      .min(1, { message: messageKey('settings.errors.badUnsubscribeLink') })
      .max(400, { message: messageKey('settings.errors.badUnsubscribeLink') }),
  })
  .strict();

/** What an unsubscribe link turns off: one type, or every email ('all', a digest's header). */
export const unsubscribeScopeSchema = z.union([notificationTypeSchema, z.literal('all')]);
export type UnsubscribeScope = z.infer<typeof unsubscribeScopeSchema>;

export const unsubscribeReplySchema = z.object({ type: unsubscribeScopeSchema });
