import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUpViaApi, type TestApp } from '../../test-support/app.ts';
import { createTempDir, makeVideo } from '../../test-support/media-fixtures.ts';
import { pollUntil } from '../../tiktok/sandbox-test-kit.ts';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

const sizeOnDisk = (file: string) =>
  stat(file).then(
    (found) => found.size,
    () => 0,
  );

/**
 * A PATCH that announces `declaredBytes`, sends what `send` is given and then goes quiet, as a
 * connection the client has given up on while the server still waits for the rest.
 */
function startQuietPatch(url: string, cookie: string, declaredBytes: number) {
  let answer: { status: number; offset: string | null } | null = null;
  let closed = false;
  const request = http.request(url, {
    method: 'PATCH',
    headers: {
      cookie,
      'tus-resumable': '1.0.0',
      'upload-offset': '0',
      'content-type': 'application/offset+octet-stream',
      'content-length': String(declaredBytes),
    },
  });
  request.on('response', (response) => {
    const offset = response.headers['upload-offset'];
    answer = {
      status: response.statusCode ?? 0,
      offset: typeof offset === 'string' ? offset : null,
    };
    response.resume();
  });
  request.on('close', () => {
    closed = true;
  });
  request.on('error', () => {
    // The server closes this connection when it lets the upload go.
  });
  return {
    send: (bytes: Uint8Array) =>
      new Promise<void>((resolve, reject) =>
        request.write(bytes, (error) => (error ? reject(error) : resolve())),
      ),
    /** The server's answer (null while there is none), and whether the connection is gone. */
    state: () => ({ answer, closed }),
    abort: () => request.destroy(),
  };
}

describe('tus uploads across API processes sharing PostgreSQL and storage', () => {
  let first: TestApp;
  let second: TestApp;
  let dir: string;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    ({ dir, cleanup } = await createTempDir());
    first = await createTestApp({}, { listen: true });
    second = await createTestApp({}, { listen: true, sameDeploymentAs: first });
  });
  afterAll(async () => {
    await second.close();
    await first.close();
    await cleanup();
  });

  it('a retry on another process makes the stalled PATCH let go, then resumes from a consistent offset', async () => {
    const cookie = await signUpViaApi(first.app, { email: 'alice@example.com' }, first.url);
    const video = await readFile(
      await makeVideo(path.join(dir, 'clip.mp4'), {
        width: 360,
        height: 640,
        durationSeconds: 3,
        source: 'testsrc2',
      }),
    );
    const created = await fetch(`${first.url}/api/uploads`, {
      method: 'POST',
      headers: {
        cookie,
        'tus-resumable': '1.0.0',
        'upload-length': String(video.length),
        'upload-metadata': `filename ${Buffer.from('clip.mp4').toString('base64')}`,
      },
    });
    expect(created.status).toBe(201);
    const location = created.headers.get('location') ?? '';
    const uploadId = location.split('/').at(-1) ?? '';
    if (first.config.storage.driver !== 'local') throw new Error('the test apps store locally');
    // LocalDiskStorage's tus directory, shared by both processes.
    const partial = path.join(first.config.storage.rootDir, '.tus-uploads', uploadId);

    // Process A receives the first half, then the connection goes quiet while still open.
    const sentToFirst = Math.floor(video.length / 2);
    const stalled = startQuietPatch(`${first.url}${location}`, cookie, video.length);
    try {
      await stalled.send(video.subarray(0, sentToFirst));
      await pollUntil(
        () => sizeOnDisk(partial),
        (size) => size === sentToFirst,
        { timeoutMs: 10_000, intervalMs: 20 },
      );
      expect(stalled.state()).toEqual({ answer: null, closed: false });

      // The client retries on process B, which must not answer while A may still write.
      const askedAt = Date.now();
      const probe = await fetch(`${second.url}${location}`, {
        method: 'HEAD',
        headers: { cookie, 'tus-resumable': '1.0.0' },
      });
      const waitedMs = Date.now() - askedAt;
      expect(stalled.state().answer).toEqual({ status: 204, offset: String(sentToFirst) });
      expect(probe.status).toBe(200);
      expect(probe.headers.get('upload-offset')).toBe(String(sentToFirst));
      expect(await sizeOnDisk(partial)).toBe(sentToFirst);
      // tus gives a released request 3 s (lockDrainTimeout) to finish; B waited for that, not
      // for the 30 s lock timeout.
      expect(waitedMs).toBeLessThan(10_000);

      const rest = await fetch(`${second.url}${location}`, {
        method: 'PATCH',
        headers: {
          cookie,
          'tus-resumable': '1.0.0',
          'upload-offset': String(sentToFirst),
          'content-type': 'application/offset+octet-stream',
        },
        body: video.subarray(sentToFirst),
      });
      expect(rest.status).toBe(204);
      expect(rest.headers.get('upload-offset')).toBe(String(video.length));
    } finally {
      stalled.abort();
    }

    // The finished upload became media; both processes serve the very bytes that were sent.
    for (const app of [first, second]) {
      const file = await app.app.inject({
        url: `/api/media/${uploadId}/file`,
        headers: { cookie },
      });
      expect(file.statusCode).toBe(200);
      expect(sha256(file.rawPayload)).toBe(sha256(video));
    }
  });
});
