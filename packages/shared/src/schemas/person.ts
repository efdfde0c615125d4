// The signed-in person (GET /api/me) and the public configuration (GET /api/public-config): what
// every signed-in screen of the web app parses before it draws. A module of their own, re-exported
// by user.ts: zod builds a schema when its module is evaluated, so the web's first load builds
// these few, not the health, data export and email change schemas beside them (their email and
// date-time patterns among them): docs/decisions/037-first-load.md.
import { z } from 'zod';
import { languages } from '../errors.ts';

export const languageSchema = z.enum(languages);

/** GET /api/me — what the browser may know about the signed-in person. */
export const meSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  isPro: z.boolean(),
  preferredLanguage: languageSchema,
  /**
   * The IANA zone times are shown and entered in ('Europe/Paris'): sent by the browser at sign-up
   * or set with PATCH /api/me; null until then (the browser should then send its own).
   */
  timeZone: z.string().nullable(),
  /** The address was confirmed (a link opened); REQUIRE_EMAIL_VERIFICATION needs it to publish. */
  emailVerified: z.boolean(),
  /** An email change waiting for its link to be opened at the new address, or null. */
  pendingEmail: z.string().nullable(),
  createdAt: z.string(),
});
export type Me = z.infer<typeof meSchema>;

/** GET /api/public-config — the allow-list of configuration the browser may read. */
export const publicConfigSchema = z.object({
  companyName: z.string(),
  companyNumber: z.string(),
  dataProtectionNumber: z.string(),
  contactEmail: z.string(),
  tiktokSandbox: z.boolean(),
  /** Largest file the server takes (MAX_UPLOAD_BYTES), so the browser can refuse bigger ones at once. */
  maxUploadBytes: z.number().int().positive(),
  /** TIKTOK_DAILY_POST_CAP: posts per account per day Cadence plans for ('12/15 aujourd'hui'). */
  tiktokDailyPostCap: z.number().int().positive(),
  /** TIKTOK_APP_AUDITED: false while TikTok has not audited the app ('Only me' on private accounts). */
  tiktokAppAudited: z.boolean(),
  /** REQUIRE_EMAIL_VERIFICATION: publishing waits until the person's address is confirmed. */
  requireEmailVerification: z.boolean(),
});
export type PublicConfig = z.infer<typeof publicConfigSchema>;
