import path from 'node:path';
import type { MemeAnalysis } from '@cadence/shared/schemas/meme';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkers } from '../../jobs/worker.ts';
import { runMediaTool } from '../../media/ffmpeg.ts';
import { createTestApp, signUpViaApi, type TestApp } from '../../test-support/app.ts';
import {
  createTempDir,
  fromFixtureCache,
  testBinaries,
} from '../../test-support/media-fixtures.ts';
import { tusUpload } from '../../test-support/tus-upload.ts';
import { heavyOnThisDatabase } from '../../test-support/test-tier.ts';

/**
 * Regression (issue 9, item 1): a 10 s MPEG-TS used as a meme source. Its timestamps start at
 * ~1.4 s and its only keyframes are 8.3 s apart; the thumbnail seek of the last extract found no
 * frame, ffmpeg exited 0 anyway, and reading the missing JPEG emitted an unhandled stream 'error'
 * that killed the process (and with it this test file).
 */

let t: TestApp;
let dir: string;
let cleanup: () => Promise<void>;
let alice: string;
let transportStream: string;

beforeAll(async () => {
  ({ dir, cleanup } = await createTempDir('cadence-mpegts-'));
  t = await createTestApp({ MEME_COMPILE_PRESET: 'ultrafast' }, { listen: true });
  alice = await signUpViaApi(t.app, { email: 'alice@example.com' }, t.url);
  await t.context.users.setProByEmail('alice@example.com', true);
  // The exact command of the report: x264's default GOP (250 frames) leaves two keyframes. Made
  // once per machine (x264's default preset at 720x1280: seconds of CPU), for both databases.
  const command = (output: string) => [
    ...['-hide_banner', '-v', 'error', '-y'],
    ...['-f', 'lavfi', '-i', 'testsrc2=size=720x1280:rate=30'],
    ...['-f', 'lavfi', '-i', 'sine', '-t', '10'],
    ...['-c:v', 'libx264', '-c:a', 'aac', '-shortest', '-f', 'mpegts', output],
  ];
  transportStream = await fromFixtureCache(path.join(dir, 'x.ts'), command('x.ts'), () =>
    runMediaTool(testBinaries.ffmpeg, command(path.join(dir, 'x.ts'))),
  );
  await startWorkers(t.context, pino({ level: 'silent' }));
}, 90_000);

afterAll(async () => {
  await t?.close();
  await cleanup?.();
});

const api = (method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({
    method,
    url,
    headers: { cookie: alice, origin: t.url },
    ...(payload && { payload }),
  });

async function waitUntilFinished(id: string, timeoutMs: number): Promise<MemeAnalysis> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const analysis = (await api('GET', `/api/memes/${id}`)).json<MemeAnalysis>();
    if (['completed', 'failed', 'cancelled'].includes(analysis.status)) return analysis;
    if (Date.now() > deadline) throw new Error(`timed out in ${JSON.stringify(analysis)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

// What ffmpeg makes of the file is the same whatever the database (test-tier.ts).
describe.runIf(heavyOnThisDatabase)('an MPEG-TS meme source (timestamps starting at 1.4 s)', () => {
  it('is analysed and compiled, every extract with its thumbnail, and the process stays up', async () => {
    const uploaded = await tusUpload(t.url, alice, transportStream, {
      filename: 'x.ts',
      purpose: 'source',
    });
    expect(uploaded.status, uploaded.body).toBe(204);
    const created = await api('POST', '/api/memes', {
      source: { type: 'media', mediaId: uploaded.id },
    });
    expect(created.statusCode, created.body).toBe(201);
    const done = await waitUntilFinished(created.json<MemeAnalysis>().id, 60_000);
    expect(done, JSON.stringify(done)).toMatchObject({
      status: 'completed',
      failReason: null,
      shorterThanTarget: true,
    });
    expect(done.durationSeconds).toBeCloseTo(10, 0);
    expect(done.extracts.length).toBeGreaterThan(0);
    for (const extract of done.extracts) {
      expect(extract.thumbnailUrl, `extract ${extract.index}`).not.toBeNull();
      const thumbnail = await api('GET', extract.thumbnailUrl ?? '');
      expect(thumbnail.statusCode).toBe(200);
      expect([...thumbnail.rawPayload.subarray(0, 2)]).toEqual([0xff, 0xd8]);
    }
    expect(done.result).toMatchObject({ kind: 'compilation', width: 1080, height: 1920 });
    // Still serving: the worker shares this process.
    expect((await t.app.inject({ url: '/api/health' })).statusCode).toBe(200);
  });
});
