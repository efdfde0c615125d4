// The real yt-dlp binary (Debian's package; `.ci/run` installs it) against a local HTTP server,
// so the arguments we pass, the progress lines we parse and the error messages we classify are
// checked against the program itself. YouTube is out of reach here: yt-dlp's generic extractor
// fetches direct file links the same way, through the same options.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readFile, readdir, stat } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempDir, makeVideo } from '../../../test-support/media-fixtures.ts';
import { VideoFetchError, fetchYouTubeVideo } from './youtube.ts';

const ytDlpPath = process.env.YTDLP_PATH ?? 'yt-dlp';
const installed = spawnSync(ytDlpPath, ['--version'], { encoding: 'utf8' }).status === 0;

// On a developer machine without yt-dlp these tests are skipped; CI installs it, so there they
// always run (and fail loudly if the install went missing).
describe.runIf(installed || process.env.CI === 'true')(
  'fetchYouTubeVideo with the real yt-dlp',
  () => {
    let dir: string;
    let cleanup: () => Promise<void>;
    let clip: string;
    let server: http.Server;
    let base: string;
    /** Resolves when the client hung up on the endless /slow.mp4 response. */
    let slowClosed: Promise<void> | undefined;

    beforeAll(async () => {
      ({ dir, cleanup } = await createTempDir('cadence-ytdlp-real-'));
      clip = await makeVideo(path.join(dir, 'clip.mp4'), {
        durationSeconds: 3,
        audio: true,
        source: 'testsrc2',
      });
      const size = (await stat(clip)).size;
      server = http.createServer((request, response) => {
        if (request.url === '/clip.mp4') {
          response.writeHead(200, { 'content-type': 'video/mp4', 'content-length': size });
          if (request.method === 'HEAD') response.end();
          else createReadStream(clip).pipe(response);
        } else if (request.url === '/slow.mp4') {
          // Announces a large file and sends a trickle: a download that is still going when aborted.
          response.writeHead(200, { 'content-type': 'video/mp4', 'content-length': 50_000_000 });
          if (request.method === 'HEAD') {
            response.end();
            return;
          }
          const timer = setInterval(() => response.write(Buffer.alloc(1024)), 50);
          slowClosed = new Promise((resolve) =>
            response.once('close', () => {
              clearInterval(timer);
              resolve();
            }),
          );
        } else {
          response.writeHead(404, { 'content-type': 'text/plain' }).end('File not found');
        }
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    }, 60_000);

    afterAll(async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await cleanup();
    });

    const sha256 = async (file: string) =>
      createHash('sha256')
        .update(await readFile(file))
        .digest('hex');

    it('downloads the file byte for byte, with its metadata and a progress bar ending at 1', async () => {
      const outputDir = path.join(dir, 'ok');
      await mkdir(outputDir);
      const progress: number[] = [];
      const fetched = await fetchYouTubeVideo({
        ytDlpPath,
        url: `${base}/clip.mp4`,
        outputDir,
        onProgress: (fraction) => progress.push(fraction),
      });
      expect(fetched.filePath).toBe(path.join(outputDir, 'clip.mp4'));
      expect(await sha256(fetched.filePath)).toBe(await sha256(clip));
      expect(fetched.metadata).toMatchObject({ id: 'clip', isLive: false, heatmap: null });
      expect(progress.at(-1)).toBe(1);
      expect(progress).toEqual([...progress].sort((a, b) => a - b));
      // Nothing but the video is left behind (no .part, .ytdl or format-suffixed leftovers).
      expect(await readdir(outputDir)).toEqual(['clip.mp4']);
    });

    it('reports a link that answers 404 as unavailable, with yt-dlp’s own words kept for the log', async () => {
      const outputDir = path.join(dir, 'missing');
      await mkdir(outputDir);
      const error = await fetchYouTubeVideo({
        ytDlpPath,
        url: `${base}/gone.mp4`,
        outputDir,
      }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(VideoFetchError);
      expect(error).toMatchObject({ code: 'unavailable' });
      expect((error as VideoFetchError).details).toMatch(/404/);
    });

    it('reports a server that refuses the connection as network, not as a vague failure', async () => {
      // A port that was just free and is now closed: yt-dlp's connection is refused.
      const closed = http.createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const { port } = closed.address() as AddressInfo;
      await new Promise((resolve) => closed.close(resolve));
      const outputDir = path.join(dir, 'refused');
      await mkdir(outputDir);
      const error = await fetchYouTubeVideo({
        ytDlpPath,
        url: `http://127.0.0.1:${port}/clip.mp4`,
        outputDir,
      }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(VideoFetchError);
      expect(error).toMatchObject({ code: 'network' });
      expect((error as VideoFetchError).details).toMatch(/Connection refused/i);
    });

    it('stops the download when cancelled: yt-dlp is killed and hangs up', async () => {
      const outputDir = path.join(dir, 'cancelled');
      await mkdir(outputDir);
      const controller = new AbortController();
      const fetching = fetchYouTubeVideo({
        ytDlpPath,
        url: `${base}/slow.mp4`,
        outputDir,
        signal: controller.signal,
        onProgress: () => controller.abort(),
      }).catch((caught: unknown) => caught);
      const error = await fetching;
      expect(error).toMatchObject({ name: 'AbortError' });
      // The server sees the connection close: no orphan process keeps downloading.
      await slowClosed;
    }, 60_000);
  },
);
