import path from 'node:path';
import type { Page } from 'playwright-core';
import { scheduleBody } from '../../apps/server/src/test-support/schedule-body.ts';
import { tusUpload } from '../../apps/server/src/test-support/tus-upload.ts';
import { MAX_PAGE_SIZE, postPageSchema } from '@cadence/shared/schemas/planning';
import type { CreateScheduleInput, Post } from '@cadence/shared/schemas/schedule';

/** Uploads a video through the tus API with the page's session, as the scheduler's form does. */
export async function uploadVideo(page: Page, file: string): Promise<string> {
  const cookie = (await page.context().cookies())
    .map((entry) => `${entry.name}=${entry.value}`)
    .join('; ');
  const upload = await tusUpload(new URL(page.url()).origin, cookie, file, {
    filename: path.basename(file),
  });
  if (upload.status !== 204 || !upload.id) {
    throw new Error(`upload failed: ${upload.status} ${upload.body}`);
  }
  return upload.id;
}

/**
 * The TikTok sandbox answers the next video/init with TikTok's error `code` and HTTP `status`:
 * the next post to publish fails with that reason (e.g. 'scope_not_authorized', 401: reconnect).
 */
export async function failNextInit(page: Page, code: string, status: number): Promise<void> {
  const response = await page.request.post('/sandbox/tiktok/_control/faults', {
    data: {
      action: 'fail_next',
      endpoint: 'video_init',
      failure: { type: 'error_body', code, status },
    },
  });
  if (!response.ok()) throw new Error(`sandbox fault: ${response.status()}`);
}

/**
 * One schedule of `captions.length` uploads of `file` through POST /api/schedules (private, as
 * the sandbox's unaudited app requires); `timing` is the request's time fields (default: now).
 */
export async function schedulePosts(
  page: Page,
  accountId: string,
  file: string,
  captions: readonly string[],
  timing: Partial<CreateScheduleInput> = {},
): Promise<void> {
  const mediaIds: string[] = [];
  while (mediaIds.length < captions.length) mediaIds.push(await uploadVideo(page, file));
  const timeZone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
  const body = scheduleBody(accountId, mediaIds, {
    timeZone,
    posts: mediaIds.map((mediaId, index) => ({ mediaId, title: captions[index] ?? '' })),
    privacyLevel: 'SELF_ONLY',
    allowComment: false,
    ...timing,
  });
  const response = await page.request.post('/api/schedules', { data: body });
  if (response.status() !== 201) {
    throw new Error(`schedule failed: ${response.status()} ${await response.text()}`);
  }
}

/** Every post of the page's user, read as the app does: the queue's pages, then the history's. */
export async function listPosts(page: Page): Promise<Post[]> {
  const posts: Post[] = [];
  for (const list of ['queue', 'history'] as const) {
    let cursor: string | null = null;
    do {
      const query = new URLSearchParams({ limit: String(MAX_PAGE_SIZE) });
      if (cursor !== null) query.set('cursor', cursor);
      const response = await page.request.get(`/api/posts/${list}?${query.toString()}`);
      if (response.status() !== 200) {
        throw new Error(`list failed: ${response.status()} ${await response.text()}`);
      }
      const next = postPageSchema.parse(await response.json());
      posts.push(...next.posts);
      cursor = next.nextCursor;
    } while (cursor !== null);
  }
  return posts;
}
