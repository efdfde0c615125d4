import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Story } from '@cadence/shared/schemas/story';
import { sql } from 'kysely';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkers } from '../../jobs/worker.ts';
import { probeVideo } from '../../media/probe.ts';
import { createTestApp, signUpViaApi, type TestApp } from '../../test-support/app.ts';
import { createTempDir, makeVideo } from '../../test-support/media-fixtures.ts';
import { tusUpload } from '../../test-support/tus-upload.ts';
import { STORY_RENDER_QUEUE } from './jobs.ts';
import { heavyOnThisDatabase } from '../../test-support/test-tier.ts';

let t: TestApp;
let dir: string;
let cleanup: () => Promise<void>;
let alice: string; // Pro
let bob: string; // not Pro
let carol: string; // Pro, someone else
const ids: Record<'top' | 'bottom' | 'long' | 'bobVideo' | 'carolVideo', string> = {
  top: '',
  bottom: '',
  long: '',
  bobVideo: '',
  carolVideo: '',
};

async function upload(cookie: string, name: string, options: Parameters<typeof makeVideo>[1]) {
  const file = await makeVideo(path.join(dir, name), options);
  const result = await tusUpload(t.url, cookie, file, { filename: name });
  if (result.status !== 204 || !result.id) throw new Error(`upload failed: ${result.body}`);
  return result.id;
}

beforeAll(async () => {
  ({ dir, cleanup } = await createTempDir('cadence-stories-'));
  t = await createTestApp({}, { listen: true });
  alice = await signUpViaApi(t.app, { email: 'alice@example.com' }, t.url);
  bob = await signUpViaApi(t.app, { email: 'bob@example.com' }, t.url);
  carol = await signUpViaApi(t.app, { email: 'carol@example.com' }, t.url);
  await t.context.users.setProByEmail('alice@example.com', true);
  await t.context.users.setProByEmail('carol@example.com', true);
  const portrait = { width: 360, height: 640, fps: 30 } as const;
  ids.top = await upload(alice, 'top.mp4', { ...portrait, durationSeconds: 2, audio: true });
  ids.bottom = await upload(alice, 'bottom.mp4', {
    width: 640,
    height: 360,
    durationSeconds: 1,
    audio: true,
    source: { color: 'blue' },
  });
  ids.long = await upload(alice, 'long.mp4', { ...portrait, durationSeconds: 20 });
  ids.bobVideo = await upload(bob, 'bob.mp4', { ...portrait, durationSeconds: 1 });
  ids.carolVideo = await upload(carol, 'carol.mp4', { ...portrait, durationSeconds: 1 });
});
afterAll(async () => {
  await t?.close();
  await cleanup?.();
});

function api(cookie: string, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) {
  return t.app.inject({
    method,
    url,
    headers: { cookie, origin: t.url },
    ...(payload && { payload }),
  });
}

async function listStories(cookie: string): Promise<Story[]> {
  const response = await api(cookie, 'GET', '/api/stories');
  expect(response.statusCode).toBe(200);
  return response.json<{ stories: Story[] }>().stories;
}

async function createStories(cookie: string, body: object): Promise<Story[]> {
  const response = await api(cookie, 'POST', '/api/stories', body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ stories: Story[] }>().stories;
}

async function countRows(userCookieEmail: string): Promise<number> {
  const result = await sql<{ count: string }>`
    select count(*) as count from stories s join "user" u on u.id = s.user_id
    where u.email = ${userCookieEmail}`.execute(t.context.database.db);
  return Number(result.rows[0]?.count ?? 0);
}

async function renderJobs(): Promise<{ storyId: string; state: string }[]> {
  const exists = await sql<{
    name: string | null;
  }>`select to_regclass('pgboss.job')::text as name`.execute(t.context.database.db);
  if (!exists.rows[0]?.name) return [];
  const result = await sql<{ storyId: string; state: string }>`
    select data->>'storyId' as "storyId", state from pgboss.job where name = ${STORY_RENDER_QUEUE}`.execute(
    t.context.database.db,
  );
  return result.rows;
}

/** Polls until `check` returns a value (not undefined), or fails after `timeoutMs`. */
async function waitFor<TValue>(
  check: () => Promise<TValue | undefined>,
  timeoutMs: number,
  what: string,
): Promise<TValue> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const someUuid = '7d1b1c1e-9f3a-4a53-9a3e-0f5d2c7b8a10';

describe('stories are Pro-only', () => {
  it('refuses every story endpoint to a non-Pro user, creating and queueing nothing', async () => {
    const valid = {
      topMediaIds: [ids.bobVideo],
      bottomMediaIds: [ids.bobVideo],
      mixBottomAudio: false,
    };
    const answers = [
      await api(bob, 'GET', '/api/stories'),
      await api(bob, 'POST', '/api/stories', valid),
      await api(bob, 'POST', '/api/stories', { topMediaIds: [] }),
      await api(bob, 'POST', `/api/stories/${someUuid}/cancel`),
      await api(bob, 'DELETE', `/api/stories/${someUuid}`),
    ];
    for (const answer of answers) {
      expect(answer.statusCode).toBe(403);
      expect(answer.json()).toMatchObject({ code: 'pro_required' });
    }
    expect(await countRows('bob@example.com')).toBe(0);
    expect(await renderJobs()).toEqual([]);

    const anonymous = await t.app.inject({ method: 'GET', url: '/api/stories' });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('creating stories', () => {
  it("refuses bad input and other people's videos with field errors, queueing nothing", async () => {
    const foreign = await api(alice, 'POST', '/api/stories', {
      topMediaIds: [ids.top],
      bottomMediaIds: [ids.carolVideo],
      mixBottomAudio: false,
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json()).toMatchObject({
      code: 'validation_failed',
      fields: { bottomMediaIds: 'errors.invalidVideo' },
    });

    const empty = await api(alice, 'POST', '/api/stories', {
      topMediaIds: [],
      bottomMediaIds: [ids.bottom],
      mixBottomAudio: false,
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ fields: { topMediaIds: 'errors.selectVideo' } });

    const tooMany = await api(alice, 'POST', '/api/stories', {
      topMediaIds: Array.from({ length: 21 }, () => ids.top),
      bottomMediaIds: [ids.bottom],
      mixBottomAudio: false,
    });
    expect(tooMany.statusCode).toBe(400);

    expect(await countRows('alice@example.com')).toBe(0);
    expect(await renderJobs()).toEqual([]);
  });

  it('queues one story per top video, bottom videos used in turn, listed newest first', async () => {
    const created = await createStories(alice, {
      topMediaIds: [ids.top, ids.long, ids.top],
      bottomMediaIds: [ids.bottom, ids.long],
      mixBottomAudio: true,
    });
    expect(created.map((story) => [story.topMediaId, story.bottomMediaId])).toEqual([
      [ids.top, ids.bottom],
      [ids.long, ids.long],
      [ids.top, ids.bottom],
    ]);
    // Named by their sources, so the creator can tell them apart.
    expect(created.map((story) => [story.topName, story.bottomName])).toEqual([
      ['top.mp4', 'bottom.mp4'],
      ['long.mp4', 'long.mp4'],
      ['top.mp4', 'bottom.mp4'],
    ]);
    for (const story of created) {
      expect(story).toMatchObject({
        status: 'queued',
        progress: 0,
        mixBottomAudio: true,
        resultMedia: null,
        failReason: null,
      });
    }
    const jobs = await renderJobs();
    expect(jobs.map((job) => job.storyId).sort()).toEqual(created.map((story) => story.id).sort());

    const later = await createStories(alice, {
      topMediaIds: [ids.top],
      bottomMediaIds: [ids.bottom],
      mixBottomAudio: false,
    });
    expect((await listStories(alice)).map((story) => story.id)).toEqual([
      later[0]!.id,
      ...created.map((story) => story.id),
    ]);
    // Carol sees none of them and can touch none of them.
    expect(await listStories(carol)).toEqual([]);
    expect((await api(carol, 'POST', `/api/stories/${later[0]!.id}/cancel`)).statusCode).toBe(404);
    expect((await api(carol, 'DELETE', `/api/stories/${later[0]!.id}`)).statusCode).toBe(404);

    // Cancelling a queued story just marks it; a second cancel is refused; delete removes it.
    const cancel = await api(alice, 'POST', `/api/stories/${later[0]!.id}/cancel`);
    expect(cancel.statusCode).toBe(200);
    expect(cancel.json()).toMatchObject({
      id: later[0]!.id,
      status: 'cancelled',
      resultMedia: null,
    });
    const again = await api(alice, 'POST', `/api/stories/${later[0]!.id}/cancel`);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ fields: { stories: 'stories.errors.notCancellable' } });
    expect((await api(alice, 'DELETE', `/api/stories/${later[0]!.id}`)).statusCode).toBe(204);
    expect((await api(alice, 'DELETE', `/api/stories/${later[0]!.id}`)).statusCode).toBe(404);

    for (const story of created) {
      expect((await api(alice, 'POST', `/api/stories/${story.id}/cancel`)).statusCode).toBe(200);
    }
  });

  it('limits how many stories one user has queued or rendering', async () => {
    const full = await createStories(alice, {
      topMediaIds: Array.from({ length: 20 }, () => ids.top),
      bottomMediaIds: [ids.bottom],
      mixBottomAudio: false,
    });
    const refused = await api(alice, 'POST', '/api/stories', {
      topMediaIds: [ids.top],
      bottomMediaIds: [ids.bottom],
      mixBottomAudio: false,
    });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({
      code: 'rate_limited',
      fields: { stories: 'stories.errors.tooManyRenders' },
    });
    expect(await countRows('alice@example.com')).toBe(3 + 20);
    // Carol has her own allowance.
    expect(
      await createStories(carol, {
        topMediaIds: [ids.carolVideo],
        bottomMediaIds: [ids.carolVideo],
        mixBottomAudio: false,
      }),
    ).toHaveLength(1);
    await Promise.all(full.map((story) => api(alice, 'POST', `/api/stories/${story.id}/cancel`)));
    const carolStory = (await listStories(carol))[0]!;
    expect((await api(carol, 'DELETE', `/api/stories/${carolStory.id}`)).statusCode).toBe(204);
    // Cancelled stories free their slots.
    expect(
      await createStories(alice, {
        topMediaIds: [ids.top],
        bottomMediaIds: [ids.bottom],
        mixBottomAudio: false,
      }),
    ).toHaveLength(1);
    const [latest] = await listStories(alice);
    expect((await api(alice, 'POST', `/api/stories/${latest!.id}/cancel`)).statusCode).toBe(200);
  });
});

describe('rendering in the worker', () => {
  it('fails a queued story whose source video was deleted, with a translated reason', async () => {
    const gone = await upload(alice, 'gone.mp4', { width: 360, height: 640, durationSeconds: 1 });
    const [sourceGone] = await createStories(alice, {
      topMediaIds: [gone],
      bottomMediaIds: [ids.bottom],
      mixBottomAudio: false,
    });
    expect((await api(alice, 'DELETE', `/api/media/${gone}`)).statusCode).toBe(204);

    // Workers start now: the ~25 cancelled stories above are skipped (one poll each), this one fails.
    await startWorkers(t.context, pino({ level: 'silent' }));
    const failed = await waitFor(
      async () =>
        (await listStories(alice)).find(
          (story) => story.id === sourceGone!.id && story.status === 'failed',
        ),
      45_000,
      'the story to fail',
    );
    expect(failed).toMatchObject({
      topMediaId: null,
      topName: null,
      bottomName: 'bottom.mp4',
      failReason: 'stories.failures.sourceMissing',
      resultMedia: null,
    });
  });

  // The render's database work is the failing and cancelled stories' too (test-tier.ts).
  it.runIf(heavyOnThisDatabase)(
    'renders a 1080×1920 story with live progress, playable and downloadable',
    async () => {
      const [queued] = await createStories(alice, {
        topMediaIds: [ids.top],
        bottomMediaIds: [ids.bottom],
        mixBottomAudio: true,
      });
      const seen: { status: string; progress: number }[] = [];
      const done = await waitFor(
        async () => {
          const story = (await listStories(alice)).find((candidate) => candidate.id === queued!.id);
          if (story) seen.push({ status: story.status, progress: story.progress });
          return story && story.status !== 'queued' && story.status !== 'rendering'
            ? story
            : undefined;
        },
        45_000,
        'the render to finish',
      );
      expect(done.status).toBe('completed');
      expect(done.progress).toBe(1);
      expect(seen.map((entry) => entry.status)).toContain('rendering');
      const progresses = seen.map((entry) => entry.progress);
      expect(progresses).toEqual([...progresses].sort((a, b) => a - b));
      expect(done.resultMedia).toMatchObject({
        kind: 'story',
        width: 1080,
        height: 1920,
        hasAudio: true,
      });

      const download = await api(alice, 'GET', `${done.resultMedia!.fileUrl}?download=1`);
      expect(download.statusCode).toBe(200);
      expect(download.headers['content-type']).toBe('video/mp4');
      expect(download.headers['content-disposition']).toMatch(
        /^attachment; filename="story-top\.mp4"$/,
      );
      const file = path.join(dir, 'downloaded.mp4');
      await writeFile(file, download.rawPayload);
      const probe = await probeVideo('ffprobe', file);
      expect(probe).toMatchObject({ displayWidth: 1080, displayHeight: 1920, hasAudio: true });
      expect(probe.durationSeconds).toBeCloseTo(2, 0);
      // The story's video belongs to Alice only.
      expect((await api(carol, 'GET', done.resultMedia!.fileUrl)).statusCode).toBe(404);
    },
  );

  it('cancels a rendering story from this process or another one: ffmpeg stops, no video kept', async () => {
    const storiesBefore = (await api(alice, 'GET', '/api/media?kind=story')).json<{
      media: unknown[];
    }>().media;
    const [first, second] = await createStories(alice, {
      topMediaIds: [ids.long, ids.long],
      bottomMediaIds: [ids.bottom],
      mixBottomAudio: false,
    });
    const rendering = (id: string) =>
      waitFor(
        async () =>
          (await listStories(alice)).find(
            (story) => story.id === id && story.status === 'rendering' && story.progress > 0,
          ),
        30_000,
        'the render to make progress',
      );
    const jobDone = (id: string) =>
      waitFor(
        async () =>
          (await renderJobs()).some((job) => job.storyId === id && job.state === 'completed')
            ? true
            : undefined,
        10_000,
        'the job to end',
      );

    // Through the API: this process aborts its ffmpeg at once.
    await rendering(first!.id);
    const cancelled = await api(alice, 'POST', `/api/stories/${first!.id}/cancel`);
    expect(cancelled.json()).toMatchObject({ status: 'cancelled' });
    const startedAt = Date.now();
    await jobDone(first!.id);
    // A 20 s story takes far longer than this to render on two cores: ffmpeg was killed.
    expect(Date.now() - startedAt).toBeLessThan(5_000);

    // As another process would: only the row changes; the render notices within its polling.
    await rendering(second!.id);
    await sql`update stories set status = 'cancelled' where id = ${second!.id}`.execute(
      t.context.database.db,
    );
    const secondCancelledAt = Date.now();
    await jobDone(second!.id);
    expect(Date.now() - secondCancelledAt).toBeLessThan(5_000);

    const after = await listStories(alice);
    for (const id of [first!.id, second!.id]) {
      expect(after.find((story) => story.id === id)).toMatchObject({
        status: 'cancelled',
        resultMedia: null,
      });
    }
    const storiesAfter = (await api(alice, 'GET', '/api/media?kind=story')).json<{
      media: unknown[];
    }>().media;
    expect(storiesAfter).toHaveLength(storiesBefore.length);
  });
});
