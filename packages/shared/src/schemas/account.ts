import { z } from 'zod';
import { messageKey } from '../translation-key.ts';

/** TikTok's privacy levels: the one list (schedule form, account defaults, publisher). */
export const privacyLevels = [
  'PUBLIC_TO_EVERYONE',
  'MUTUAL_FOLLOW_FRIENDS',
  'FOLLOWER_OF_CREATOR',
  'SELF_ONLY',
] as const;
export const privacyLevelSchema = z.enum(privacyLevels);
export type PrivacyLevel = z.infer<typeof privacyLevelSchema>;

export const accountStatuses = ['not_connected', 'connected', 'reconnect_needed'] as const;
export type AccountStatus = (typeof accountStatuses)[number];

/**
 * A TikTok username as Cadence keeps it: trimmed, in Unicode's compatibility form (NFKC: the
 * full-width 'ｃａｍｉｌｌｅ' a phone keyboard can type is 'camille'), without the leading '@'
 * people often type ('@camille' and 'camille' are one account; case is compared insensitively by
 * the database).
 */
export function normaliseUsername(username: string): string {
  return username.trim().normalize('NFKC').replace(/^@+/, '');
}

/**
 * Spaces, and characters that show nothing or reorder what follows (zero-width, bidi overrides,
 * controls, unassigned): never part of a TikTok username, and the way to make a card that looks
 * like another one.
 */
const invisibleOrSpace = /[\p{C}\p{Z}\s]/u;

/** POST /api/accounts — the username is normalised (`normaliseUsername`) and stored. */
export const createAccountSchema = z.object({
  username: z
    .string()
    .transform(normaliseUsername)
    .pipe(
      z
        .string()
        .min(1, messageKey('errors.invalid_value'))
        .max(64, messageKey('accounts.errors.usernameTooLong'))
        .refine(
          (username) => !invisibleOrSpace.test(username),
          messageKey('accounts.errors.usernameInvisible'),
        ),
    ),
});
export type CreateAccount = z.infer<typeof createAccountSchema>;

/** PATCH /api/accounts/:id/settings — defaults the scheduler form starts from. */
export const accountSettingsSchema = z
  .object({
    defaultPrivacyLevel: privacyLevelSchema.nullable(),
    allowComment: z.boolean(),
    allowDuet: z.boolean(),
    allowStitch: z.boolean(),
  })
  .strict();
export type AccountSettings = z.infer<typeof accountSettingsSchema>;

/** One account card. Tokens never appear here. */
export const accountSchema = z.object({
  id: z.uuid(),
  username: z.string(),
  status: z.enum(accountStatuses),
  displayName: z.string().nullable(),
  avatarUrl: z.string().nullable(),
  openId: z.string().nullable(),
  scopes: z.array(z.string()),
  /** False when the person declined `video.publish`: nothing can be posted until they reconnect. */
  canPublish: z.boolean(),
  scheduledCount: z.number().int(),
  nextPostAt: z.string().nullable(),
  settings: accountSettingsSchema,
  connectedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type Account = z.infer<typeof accountSchema>;

export const accountListSchema = z.object({ accounts: z.array(accountSchema) });

export const connectResponseSchema = z.object({ authorizeUrl: z.url() });

/** What creator_info says a creator may post with: the options the composer offers. */
export const creatorOptionsSchema = z.object({
  privacyLevelOptions: z.array(privacyLevelSchema),
  commentDisabled: z.boolean(),
  duetDisabled: z.boolean(),
  stitchDisabled: z.boolean(),
  /**
   * Longest video the creator may post, in seconds; null when TikTok gives no usable limit (0,
   * missing, or the creator cannot post now): then no duration limit is enforced.
   */
  maxVideoPostDurationSec: z.number().positive().nullable(),
});
export type CreatorOptions = z.infer<typeof creatorOptionsSchema>;

/** TikTok's 'cannot post now' that no later day lifts: the account is suspended from posting. */
export const postingBanCode = 'spam_risk_user_banned_from_posting';

/** GET /api/accounts/:id/creator-info — what TikTok says this creator may post right now. */
export const creatorInfoSchema = creatorOptionsSchema.extend({
  nickname: z.string(),
  username: z.string(),
  /** An http(s) link, or null when TikTok sent none usable. */
  avatarUrl: z.string().nullable(),
  /** Set when TikTok says the creator cannot post now (e.g. 'spam_risk_too_many_posts'). */
  cannotPostReason: z.string().nullable(),
  /**
   * With a `cannotPostReason` other than a ban: the options of TikTok's last successful answer for
   * this account and when it gave them (`fetchedAt`, ISO), for posts due on a later day; null
   * otherwise, or when TikTok never answered for this account.
   */
  lastKnown: creatorOptionsSchema.extend({ fetchedAt: z.string() }).nullable(),
});
export type CreatorInfo = z.infer<typeof creatorInfoSchema>;

/**
 * GET /api/pending-connections/:id — TikTok granted access to another account than the card's
 * (`/tiktok?mismatch=<id>`). Nothing changed yet: the person keeps it or cancels.
 */
export const pendingConnectionSchema = z.object({
  id: z.uuid(),
  /** The card Connect was clicked on, and its username. */
  accountId: z.uuid(),
  cardUsername: z.string(),
  /** The TikTok account authorised: its username (null when the profile scope was declined). */
  authorisedUsername: z.string().nullable(),
  authorisedDisplayName: z.string().nullable(),
  /**
   * Set when another card already holds the authorised TikTok account: keeping updates that card
   * (and drops the clicked one if it was never connected) instead of renaming the clicked card.
   */
  holderUsername: z.string().nullable(),
  expiresAt: z.string(),
});
export type PendingConnection = z.infer<typeof pendingConnectionSchema>;

/** POST /api/pending-connections/:id/keep — the account the grant is now stored on. */
export const keptConnectionSchema = z.object({ accountId: z.uuid() });

/**
 * Where the OAuth callback sends the browser back: /tiktok?connected=<id>, ?mismatch=<pending id>
 * or ?error=<kind>.
 */
export const connectionErrorKinds = ['connection', 'token', 'state'] as const;
export type ConnectionErrorKind = (typeof connectionErrorKinds)[number];

/**
 * The scopes Cadence asks TikTok for (tiktok-api.md §1), each one used: `user.info.basic` and
 * `user.info.profile` the account card (avatar, name, username); `user.info.stats` and
 * `video.list` analytics (docs/tiktok-display-api.md); `video.publish` direct posts;
 * `video.upload` 'Send to my TikTok inbox' (docs/tiktok-media-transfer.md).
 */
export const requestedScopes = [
  'user.info.basic',
  'user.info.profile',
  'user.info.stats',
  'video.list',
  'video.upload',
  'video.publish',
] as const;
