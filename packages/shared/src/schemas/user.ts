import { z } from 'zod';
import { messageKey } from '../translation-key.ts';
import { languageSchema } from './person.ts';
import { timeZoneSchema } from './time-zone.ts';

// The person and the public configuration: every signed-in screen parses them first, so they have
// a module of their own (person.ts), without the rest of this one's schemas.
export {
  languageSchema,
  meSchema,
  publicConfigSchema,
  type Me,
  type PublicConfig,
} from './person.ts';

/** PATCH /api/me — the language, the time zone, or both. */
export const updateMeSchema = z
  .object({ preferredLanguage: languageSchema.optional(), timeZone: timeZoneSchema.optional() })
  .strict()
  .refine((body) => body.preferredLanguage !== undefined || body.timeZone !== undefined, {
    message: messageKey('errors.nothingToChange'),
    path: ['_'],
  });
export type UpdateMe = z.infer<typeof updateMeSchema>;

/** How a media tool answered its check: `missing` cannot be started, `broken` fails its check. */
export const mediaToolStateSchema = z.enum(['ok', 'missing', 'broken']);
export type MediaToolState = z.infer<typeof mediaToolStateSchema>;

/**
 * GET /api/health: `ok` (200); `degraded` (200, an optional capability is off: yt-dlp);
 * `unhealthy` (503: database unreachable, ffmpeg/ffprobe unusable, or the workers stalled). `problems` says what, in
 * words (never paths or internals).
 */
export const healthSchema = z.object({
  status: z.enum(['ok', 'degraded', 'unhealthy']),
  database: z.object({ kind: z.enum(['pglite', 'postgres']), ok: z.boolean() }),
  /**
   * The job workers of the whole deployment, read from the database (so a WORKER=off process sees
   * workers elsewhere): `running` when one took a heartbeat recently, `stalled` (503) when jobs
   * have waited past the stall window with no heartbeat; `mode` is this process's WORKER setting.
   */
  worker: z.object({
    mode: z.enum(['embedded', 'off']),
    running: z.boolean(),
    stalled: z.boolean(),
    lastHeartbeatAt: z.iso.datetime().nullable(),
    queues: z.array(z.object({ name: z.string(), due: z.number(), active: z.number() })),
  }),
  media: z.object({
    ffmpeg: mediaToolStateSchema,
    ffprobe: mediaToolStateSchema,
    ytDlp: mediaToolStateSchema,
  }),
  problems: z.array(z.string()),
  uptimeSeconds: z.number(),
});
export type Health = z.infer<typeof healthSchema>;

/** POST /api/me/delete — deleting my account takes my password again. */
export const deleteAccountSchema = z
  .object({
    password: z
      .string({ message: messageKey('auth.errors.fillAllFields') })
      .min(1, { message: messageKey('auth.errors.fillAllFields') })
      .max(128, { message: messageKey('auth.errors.wrongCurrentPassword') }),
  })
  .strict();
export type DeleteAccountInput = z.infer<typeof deleteAccountSchema>;

/** Where a 'download my data' archive stands: prepared by a job, kept a few days, then deleted. */
export const dataExportStatusSchema = z.enum(['pending', 'running', 'ready', 'failed', 'expired']);
export type DataExportStatus = z.infer<typeof dataExportStatusSchema>;

/** GET /api/me/export — my latest archive (null `export` when I never asked for one). */
export const dataExportSchema = z.object({
  id: z.string(),
  status: dataExportStatusSchema,
  /** 0–100 while the job runs. */
  progress: z.number().int().min(0).max(100),
  sizeBytes: z.number().int().nullable(),
  createdAt: z.string(),
  readyAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
  /** Same-origin path of the ZIP (the owner's session is required), when ready. */
  downloadUrl: z.string().nullable(),
});
export type DataExport = z.infer<typeof dataExportSchema>;
export const dataExportStateSchema = z.object({ export: dataExportSchema.nullable() });
export type DataExportState = z.infer<typeof dataExportStateSchema>;

/** POST /api/me/email — a new address, confirmed by the link sent to it; the password again. */
export const changeEmailSchema = z
  .object({
    newEmail: z
      .string({ message: messageKey('auth.errors.fillAllFields') })
      .trim()
      .toLowerCase()
      .pipe(
        z
          .email({ message: messageKey('auth.errors.invalidEmail') })
          .max(254, { message: messageKey('auth.errors.invalidEmail') }),
      ),
    password: z
      .string({ message: messageKey('auth.errors.fillAllFields') })
      .min(1, { message: messageKey('auth.errors.fillAllFields') })
      .max(128, { message: messageKey('auth.errors.wrongCurrentPassword') }),
  })
  .strict();
export type ChangeEmailInput = z.infer<typeof changeEmailSchema>;

/** POST /api/me/email/confirm — the token of the link sent to the new address. */
export const confirmEmailChangeSchema = z
  .object({
    token: z
      .string({ message: messageKey('settings.errors.emailLinkInvalid') })
      .min(1, { message: messageKey('settings.errors.emailLinkInvalid') })
      .max(200, { message: messageKey('settings.errors.emailLinkInvalid') }),
  })
  .strict();
export type ConfirmEmailChangeInput = z.infer<typeof confirmEmailChangeSchema>;
