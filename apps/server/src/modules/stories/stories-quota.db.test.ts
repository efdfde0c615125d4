import path from 'node:path';
import type { Story } from '@cadence/shared/schemas/story';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUpViaApi, type TestApp } from '../../test-support/app.ts';
import { createTempDir, makeVideo } from '../../test-support/media-fixtures.ts';
import { tusUpload } from '../../test-support/tus-upload.ts';
import { expectedRenderBytes } from '../media/service.ts';

// A 6 MB compilation took a user to 10.38 MB of a 10 MB quota: renders were stored without
// looking at the quota. Now a render the user has no room for fails with a translated reason,
// and the quota (media + unfinished uploads) never goes past its limit.
const QUOTA = 10_000_000;
const STORY_SECONDS = 2;

let t: TestApp;
let dir: string;
let cleanup: () => Promise<void>;
let users = 0;

beforeAll(async () => {
  ({ dir, cleanup } = await createTempDir('cadence-stories-quota-'));
  t = await createTestApp({ USER_QUOTA_BYTES: String(QUOTA) }, { listen: true });
});
afterAll(async () => {
  await t?.close();
  await cleanup?.();
});

/** A Pro user with a top and a bottom video; the workers are not started: renders run here. */
async function proUserWithSources(source: 'testsrc' | 'mandelbrot' = 'testsrc') {
  const email = `quota-story-${++users}@example.com`;
  const cookie = await signUpViaApi(t.app, { email }, t.url);
  await t.context.users.setProByEmail(email, true);
  const user = await t.context.database.db
    .selectFrom('user')
    .select('id')
    .where('email', '=', email)
    .executeTakeFirstOrThrow();
  const ids: string[] = [];
  for (const [name, width, height] of [
    ['top.mp4', 360, 640],
    ['bottom.mp4', 640, 360],
  ] as const) {
    const file = await makeVideo(path.join(dir, `${users}-${name}`), {
      width,
      height,
      durationSeconds: STORY_SECONDS,
      audio: true,
      source,
    });
    const result = await tusUpload(t.url, cookie, file, { filename: name });
    expect(result.status, result.body).toBe(204);
    ids.push(result.id ?? '');
  }
  return { cookie, userId: user.id, top: ids[0]!, bottom: ids[1]! };
}

async function renderOne(cookie: string, top: string, bottom: string): Promise<Story> {
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/stories',
    headers: { cookie, origin: t.url },
    payload: { topMediaIds: [top], bottomMediaIds: [bottom], mixBottomAudio: false },
  });
  expect(created.statusCode, created.body).toBe(201);
  const [story] = created.json<{ stories: Story[] }>().stories;
  await t.context.storyRenderer.render(story!.id);
  const list = await t.app.inject({ url: '/api/stories', headers: { cookie } });
  return list.json<{ stories: Story[] }>().stories.find((row) => row.id === story!.id)!;
}

/** What the quota counts: the user's media and unfinished uploads (an independent query). */
async function usedBytes(userId: string): Promise<number> {
  const result = await sql<{ total: string | number }>`
    select
      (select coalesce(sum(size_bytes), 0) from media where user_id = ${userId})
      + (select coalesce(sum(declared_bytes), 0) from upload_reservations where user_id = ${userId})
      as total`.execute(t.context.database.db);
  return Number(result.rows[0]?.total ?? 0);
}

/** Takes `bytes` of the user's quota the way an unfinished upload does. */
async function holdSpace(userId: string, bytes: number): Promise<void> {
  const suffix = (++users).toString(16).padStart(32, '0');
  await t.context.media.reserveUpload(userId, `${userId}-${suffix}`, bytes);
}

describe('story renders count against the quota', () => {
  it('stores a render that fits, as media counted in the quota', async () => {
    const { cookie, userId, top, bottom } = await proUserWithSources();
    const before = await usedBytes(userId);
    const story = await renderOne(cookie, top, bottom);
    expect(story).toMatchObject({ status: 'completed', failReason: null });
    expect(await usedBytes(userId)).toBe(before + story.resultMedia!.sizeBytes);
  });

  it('fails without rendering when there is no room for the expected size', async () => {
    const { cookie, userId, top, bottom } = await proUserWithSources();
    await holdSpace(userId, QUOTA - (await usedBytes(userId)) - 1_000);
    const before = await usedBytes(userId);
    const story = await renderOne(cookie, top, bottom);
    expect(story).toMatchObject({
      status: 'failed',
      failReason: 'stories.failures.quotaFull',
      resultMedia: null,
    });
    expect(await usedBytes(userId)).toBe(before);
  });

  it('does not keep a render whose real size passes the quota (the estimate was low)', async () => {
    // Detailed pictures: the 2 s story weighs ~2.9 MB, far above the ~0.4 MB estimate.
    const { cookie, userId, top, bottom } = await proUserWithSources('mandelbrot');
    // Room for the estimate, not for the real file.
    const estimate = expectedRenderBytes(STORY_SECONDS);
    await holdSpace(userId, QUOTA - (await usedBytes(userId)) - estimate - 1_000);
    const before = await usedBytes(userId);
    const story = await renderOne(cookie, top, bottom);
    expect(story).toMatchObject({
      status: 'failed',
      failReason: 'stories.failures.quotaFull',
      resultMedia: null,
    });
    expect(await usedBytes(userId)).toBe(before);
    expect(before).toBeLessThanOrEqual(QUOTA);
    const media = await t.app.inject({ url: '/api/media', headers: { cookie } });
    expect(media.json<{ media: { kind: string }[] }>().media.map((row) => row.kind)).toEqual([
      'upload',
      'upload',
    ]);
  });
});
