import { z } from 'zod';

export const mediaKinds = ['upload', 'story', 'compilation'] as const;
export type MediaKind = (typeof mediaKinds)[number];

/** A video the user owns, ready to schedule (GET /api/media, /api/media/:id). */
export const mediaSchema = z.object({
  id: z.string(),
  kind: z.enum(mediaKinds),
  originalName: z.string(),
  sizeBytes: z.number().int(),
  durationSeconds: z.number(),
  width: z.number().int(),
  height: z.number().int(),
  hasAudio: z.boolean(),
  /** Same-origin URLs, served with the session cookie; null when no thumbnail could be made. */
  thumbnailUrl: z.string().nullable(),
  fileUrl: z.string(),
  createdAt: z.string(),
});
export type Media = z.infer<typeof mediaSchema>;
export const mediaListSchema = z.object({ media: z.array(mediaSchema) });

/** Why an uploaded file was refused (TikTok's limits, tiktok-api.md §5); each has a translation. */
export const mediaRejectionReasons = [
  'not_a_video',
  'unsupported_container',
  'unsupported_codec',
  'duration_too_long',
  'too_small',
  'too_large',
  'fps_out_of_range',
  'file_too_big',
  'quota_exceeded',
  'source_too_long',
  // Refused at creation, before any byte is stored (tus Upload-Metadata).
  'invalid_file_name',
  'invalid_upload',
] as const;
export type MediaRejectionReason = (typeof mediaRejectionReasons)[number];

/**
 * Why a file is uploaded (tus metadata `purpose`): to be posted, so TikTok's limits apply at once,
 * or as the source of a story or a meme compilation, which takes any video ffmpeg can read (odd
 * sizes, phone slow-motion, MKV…) up to MAX_SOURCE_DURATION_SECONDS. A source can still be posted
 * later only if it meets TikTok's limits: scheduling checks them again.
 */
export const uploadPurposes = ['post', 'source'] as const;
export type UploadPurpose = (typeof uploadPurposes)[number];
export const MAX_SOURCE_DURATION_SECONDS = 3 * 3600;

/**
 * Body of a tus response that refuses an upload: at creation (400 invalid metadata, 413 over the
 * quota or over the server's largest file) or once finished (422). A quota refusal says the quota
 * and what is already used or reserved by unfinished uploads; a file over MAX_UPLOAD_BYTES says
 * that limit (`maxBytes`), so the person reads the server's own figure whether or not the page
 * knew it; `message` is an English detail for API clients.
 */
export const mediaRejectedSchema = z.object({
  code: z.literal('media_rejected'),
  reasons: z.array(z.enum(mediaRejectionReasons)),
  quotaBytes: z.number().int().nonnegative().optional(),
  usedBytes: z.number().int().nonnegative().optional(),
  maxBytes: z.number().int().nonnegative().optional(),
  message: z.string().optional(),
});
export type MediaRejectedBody = z.infer<typeof mediaRejectedSchema>;
