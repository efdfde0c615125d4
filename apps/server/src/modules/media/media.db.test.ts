import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUpViaApi, type TestApp } from '../../test-support/app.ts';
import { createTempDir, makeVideo } from '../../test-support/media-fixtures.ts';
import { tusUpload } from '../../test-support/tus-upload.ts';

let t: TestApp;
let alice: string;
let bob: string;
let dir: string;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ dir, cleanup } = await createTempDir());
  t = await createTestApp({ USER_QUOTA_BYTES: String(3 * 1024 * 1024) }, { listen: true });
  alice = await signUpViaApi(t.app, { email: 'alice@example.com' }, t.url);
  bob = await signUpViaApi(t.app, { email: 'bob@example.com' }, t.url);
});
afterAll(async () => {
  await t.close();
  await cleanup();
});

const get = (cookie: string, url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ url, headers: { cookie, ...headers } });

describe('uploads become media', () => {
  it('accepts a real video: probed, thumbnailed, listed, served with ranges, private to its owner', async () => {
    const file = await makeVideo(path.join(dir, 'portrait.mp4'), {
      width: 360,
      height: 640,
      durationSeconds: 2,
      audio: true,
    });
    const upload = await tusUpload(t.url, alice, file, {
      filename: 'Mon clip.mp4',
      chunkBytes: 64 * 1024,
    });
    expect(upload.status).toBe(204);
    const list = (await get(alice, '/api/media')).json<{ media: Record<string, unknown>[] }>()
      .media;
    expect(list).toEqual([
      expect.objectContaining({
        id: upload.id,
        kind: 'upload',
        originalName: 'Mon clip.mp4',
        width: 360,
        height: 640,
        hasAudio: true,
      }),
    ]);
    expect(list[0]!.durationSeconds).toBeCloseTo(2, 1);

    const thumbnail = await get(alice, String(list[0]!.thumbnailUrl));
    expect(thumbnail.headers['content-type']).toBe('image/jpeg');
    expect(thumbnail.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));

    const partial = await get(alice, `/api/media/${upload.id}/file`, { range: 'bytes=0-99' });
    expect(partial.statusCode).toBe(206);
    expect(partial.rawPayload).toHaveLength(100);
    expect(partial.headers['content-range']).toMatch(/^bytes 0-99\/\d+$/);
    const download = await get(alice, `/api/media/${upload.id}/file?download=1`);
    expect(download.headers['content-disposition']).toBe('attachment; filename="Mon_clip.mp4"');
    expect(
      (await get(alice, `/api/media/${upload.id}/file`, { range: 'bytes=999999999-' })).statusCode,
    ).toBe(416);

    // Bob sees nothing of it, not even that it exists.
    expect((await get(bob, '/api/media')).json()).toEqual({ media: [] });
    expect((await get(bob, `/api/media/${upload.id}/file`)).statusCode).toBe(404);
    expect((await get(bob, `/api/media/${upload.id}/thumbnail`)).statusCode).toBe(404);
    expect(
      (
        await t.app.inject({
          method: 'DELETE',
          url: `/api/media/${upload.id}`,
          headers: { cookie: bob },
        })
      ).statusCode,
    ).toBe(404);

    expect(
      (
        await t.app.inject({
          method: 'DELETE',
          url: `/api/media/${upload.id}`,
          headers: { cookie: alice },
        })
      ).statusCode,
    ).toBe(204);
    expect((await get(alice, '/api/media')).json()).toEqual({ media: [] });
  });

  it('refuses a file that is not a video, with the reason, and keeps nothing', async () => {
    const fake = path.join(dir, 'notes.mp4');
    await writeFile(fake, 'these are not video bytes '.repeat(200));
    const upload = await tusUpload(t.url, alice, fake);
    expect(upload.status).toBe(422);
    expect(JSON.parse(upload.body)).toEqual({ code: 'media_rejected', reasons: ['not_a_video'] });
    expect((await get(alice, '/api/media')).json()).toEqual({ media: [] });
  });

  it("refuses a video outside TikTok's limits with each reason", async () => {
    const tiny = await makeVideo(path.join(dir, 'tiny.mp4'), {
      width: 320,
      height: 240,
      fps: 15,
      durationSeconds: 1,
    });
    const upload = await tusUpload(t.url, alice, tiny);
    expect(upload.status).toBe(422);
    expect(JSON.parse(upload.body).reasons).toEqual(
      expect.arrayContaining(['too_small', 'fps_out_of_range']),
    );
  });

  it("takes story and meme sources outside TikTok's limits, but not what is no video", async () => {
    // A small 15 fps phone clip in MKV: refused as a post, fine as a source.
    const clip = await makeVideo(path.join(dir, 'odd.mkv'), {
      width: 321,
      height: 241,
      fps: 15,
      durationSeconds: 1,
    });
    const asPost = await tusUpload(t.url, bob, clip, { filename: 'odd.mkv' });
    expect(asPost.status).toBe(422);
    expect(JSON.parse(asPost.body).reasons).toEqual(
      expect.arrayContaining(['unsupported_container', 'too_small', 'fps_out_of_range']),
    );
    const asSource = await tusUpload(t.url, bob, clip, { filename: 'odd.mkv', purpose: 'source' });
    expect(asSource.status, asSource.body).toBe(204);
    const listed = (await get(bob, '/api/media')).json<{ media: { id: string }[] }>().media;
    expect(listed.map((media) => media.id)).toEqual([asSource.id]);

    const fake = path.join(dir, 'fake-source.mp4');
    await writeFile(fake, 'not a video either '.repeat(200));
    const notVideo = await tusUpload(t.url, bob, fake, { purpose: 'source' });
    expect(notVideo.status).toBe(422);
    expect(JSON.parse(notVideo.body).reasons).toEqual(['not_a_video']);
  });

  it('refuses uploads past the per-user quota before any byte is sent', async () => {
    const big = path.join(dir, 'big.mp4');
    await writeFile(big, Buffer.alloc(4 * 1024 * 1024, 1));
    const upload = await tusUpload(t.url, alice, big);
    expect(upload.status).toBe(413);
    expect(JSON.parse(upload.body)).toMatchObject({
      code: 'media_rejected',
      reasons: ['quota_exceeded'],
      quotaBytes: 3 * 1024 * 1024,
    });
  });

  it('refuses anonymous uploads', async () => {
    const response = await fetch(`${t.url}/api/uploads`, {
      method: 'POST',
      headers: { 'tus-resumable': '1.0.0', 'upload-length': '10' },
    });
    expect(response.status).toBe(401);
  });
});
