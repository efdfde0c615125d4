import { z } from 'zod';

/**
 * JSON.parse, except that bare integers of 16+ digits become strings first: TikTok's post and
 * video ids exceed 2^53 and would silently lose their last digits as numbers.
 */
export function parseJsonKeepingBigIntegers(text: string): unknown {
  const quoted = text.replace(/"(?:[^"\\]|\\.)*"|(?<![\w.+-])-?\d{16,}(?![\w.])/g, (match) =>
    match.startsWith('"') ? match : `"${match}"`,
  );
  return JSON.parse(quoted);
}

/** A number TikTok may send as a JSON number or, after big-integer quoting, as a digit string. */
const count = z.union([
  z.number(),
  z
    .string()
    .regex(/^-?\d+$/)
    .transform(Number),
]);
/** An id kept as a string whatever TikTok sent. */
const id = z.union([z.string(), z.number().int()]).transform(String);

/**
 * A link TikTok gives for a browser to open or show (an avatar, a cover, a video's page): it is
 * stored and later put in an `<img src>` or `<a href>`, so only http(s) URLs pass; anything else
 * is dropped (as if TikTok had not sent it) rather than failing the whole answer.
 */
const webLink = z
  .string()
  .refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol))
  .optional()
  .catch(undefined);

export const oauthErrorSchema = z.object({
  error: z.string().min(1),
  error_description: z.string().optional(),
  log_id: z.string().optional(),
});

export const tokenResponseSchema = z.object({
  access_token: z.string().min(1),
  expires_in: count,
  open_id: z.string().min(1),
  refresh_expires_in: count,
  refresh_token: z.string().min(1),
  scope: z.string(),
  // Documented as "Bearer", but not sent in every answer (tiktok-api.md §5).
  token_type: z.string().optional(),
});

export const envelopeSchema = z.object({
  data: z.unknown().optional(),
  error: z.object({
    code: z.string(),
    message: z.string().optional(),
    log_id: z.string().optional(),
  }),
});

export const userSchema = z.object({
  open_id: z.string().optional(),
  union_id: z.string().optional(),
  avatar_url: webLink,
  avatar_url_100: webLink,
  avatar_large_url: webLink,
  display_name: z.string().optional(),
  bio_description: z.string().optional(),
  profile_deep_link: webLink,
  is_verified: z.boolean().optional(),
  username: z.string().optional(),
  follower_count: count.optional(),
  following_count: count.optional(),
  likes_count: count.optional(),
  video_count: count.optional(),
});
export const userInfoDataSchema = z.object({ user: userSchema });

export const creatorInfoDataSchema = z.object({
  creator_avatar_url: webLink,
  creator_username: z.string(),
  creator_nickname: z.string(),
  privacy_level_options: z.array(z.string()),
  comment_disabled: z.boolean(),
  duet_disabled: z.boolean(),
  stitch_disabled: z.boolean(),
  // TikTok sometimes sends 0 or nothing: no usable limit (tiktok-client maps both to null).
  max_video_post_duration_sec: count.optional(),
});

export const initDataSchema = z.object({
  publish_id: z.string().min(1),
  upload_url: z.string().min(1),
});
/** PULL_FROM_URL's init answer: TikTok downloads the video, so no upload_url. */
export const pullInitDataSchema = z.object({ publish_id: z.string().min(1) });

export const publishStatusSchema = z.enum([
  'PROCESSING_UPLOAD',
  'PROCESSING_DOWNLOAD',
  'SEND_TO_USER_INBOX',
  'PUBLISH_COMPLETE',
  'FAILED',
]);

export const statusDataSchema = z.object({
  // A value TikTok adds later must not fail a post that may well be published: the client reads
  // it as UNKNOWN and the publisher keeps polling.
  status: z.string().min(1),
  fail_reason: z.string().optional(),
  // (sic) TikTok's spelling.
  publicaly_available_post_id: z.array(id).optional(),
  uploaded_bytes: count.optional(),
  downloaded_bytes: count.optional(),
});

export const videoSchema = z.object({
  id: id.optional(),
  create_time: count.optional(),
  cover_image_url: webLink,
  share_url: webLink,
  video_description: z.string().optional(),
  duration: count.optional(),
  height: count.optional(),
  width: count.optional(),
  title: z.string().optional(),
  embed_html: z.string().optional(),
  embed_link: z.string().optional(),
  like_count: count.optional(),
  comment_count: count.optional(),
  share_count: count.optional(),
  view_count: count.optional(),
});
export const videoListDataSchema = z.object({
  videos: z.array(videoSchema),
  cursor: count,
  has_more: z.boolean(),
});
export const videoQueryDataSchema = z.object({ videos: z.array(videoSchema) });
