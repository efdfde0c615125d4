import { z } from 'zod';
import { uploadPurposes } from './media.ts';

/** Longest file name an upload may carry: what file systems allow (255 bytes, hence ≤ 255 characters). */
export const MAX_UPLOAD_FILE_NAME_LENGTH = 255;

// C0/C1 control characters (NUL included: PostgreSQL text cannot hold it) and the bidirectional
// overrides that make 'clip\u202Egpj.mp4' display as 'clip4pm.jpg'. No real file name needs them.
// eslint-disable-next-line no-control-regex
const FORBIDDEN_IN_NAMES = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/** A file's name as the browser gives it (`File.name`): 1–255 characters, no control characters. */
export const uploadFileNameSchema = z
  .string()
  .min(1)
  .max(MAX_UPLOAD_FILE_NAME_LENGTH)
  .refine((name) => !FORBIDDEN_IN_NAMES.test(name), 'control characters are not allowed')
  .refine((name) => name.trim().length > 0, 'the name is blank');

/** `File.type`: empty when the browser does not know it, else `type/subtype[; parameters]`. */
const mimeTypeSchema = z
  .string()
  .max(255)
  .regex(/^(?:[\w!#$&^.+-]+\/[\w!#$&^.+-]+(?:\s*;\s*[\w!#$&^.+-]+=[\x21-\x7e]+)*)?$/);

/** Keys of Upload-Metadata entries we do not use (Uppy adds relativePath and the file's meta). */
const OTHER_KEY = /^[A-Za-z0-9_.-]{1,64}$/;
const MAX_METADATA_ENTRIES = 16;
const otherValueSchema = z
  .string()
  .max(1024)
  .refine((value) => !FORBIDDEN_IN_NAMES.test(value), 'control characters are not allowed')
  .nullable();

/**
 * tus Upload-Metadata of a new upload, decoded (each value UTF-8, null for a key without value),
 * as tus-js-client sends it (`filename`, `filetype`, `purpose`) or Uppy (`name`, `type`, …).
 * Parses to what the server keeps: the file name (default 'video'), its type and the purpose
 * (default 'post'). Unknown keys are allowed (bounded, no control characters) and dropped.
 */
export const uploadMetadataSchema = z
  .record(z.string(), z.string().nullable())
  .superRefine((metadata, context) => {
    const entries = Object.entries(metadata);
    if (entries.length > MAX_METADATA_ENTRIES) {
      context.addIssue({ code: 'custom', message: `at most ${MAX_METADATA_ENTRIES} entries` });
    }
    for (const [key, value] of entries) {
      if (['filename', 'name', 'filetype', 'type', 'purpose'].includes(key)) continue;
      if (!OTHER_KEY.test(key) || !otherValueSchema.safeParse(value).success) {
        context.addIssue({ code: 'custom', path: [key], message: 'invalid metadata entry' });
      }
    }
  })
  .pipe(
    z.object({
      // An empty value arrives as null (tus-js-client sends `filetype ` for an unknown type).
      filename: uploadFileNameSchema.nullish(),
      name: uploadFileNameSchema.nullish(),
      filetype: mimeTypeSchema.nullish(),
      type: mimeTypeSchema.nullish(),
      purpose: z.enum(uploadPurposes).nullish(),
    }),
  )
  .transform((metadata) => ({
    filename: metadata.filename ?? metadata.name ?? 'video',
    filetype: metadata.filetype ?? metadata.type ?? '',
    purpose: metadata.purpose ?? 'post',
  }));

export type UploadMetadata = z.output<typeof uploadMetadataSchema>;
