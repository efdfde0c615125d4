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
  createdAt: z.string(),
});
export type Me = z.infer<typeof meSchema>;

/** PATCH /api/me */
export const updateMeSchema = z.object({ preferredLanguage: languageSchema }).strict();
export type UpdateMe = z.infer<typeof updateMeSchema>;

/** GET /api/public-config — the allow-list of configuration the browser may read. */
export const publicConfigSchema = z.object({
  companyName: z.string(),
  companyNumber: z.string(),
  dataProtectionNumber: z.string(),
  contactEmail: z.string(),
  tiktokSandbox: z.boolean(),
  /** Largest file the server takes (MAX_UPLOAD_BYTES), so the browser can refuse bigger ones at once. */
  maxUploadBytes: z.number().int().positive(),
});
export type PublicConfig = z.infer<typeof publicConfigSchema>;

/** GET /api/health */
export const healthSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  database: z.object({ kind: z.enum(['pglite', 'postgres']), ok: z.boolean() }),
  worker: z.object({ mode: z.enum(['embedded', 'off']), running: z.boolean() }),
  uptimeSeconds: z.number(),
});
export type Health = z.infer<typeof healthSchema>;
