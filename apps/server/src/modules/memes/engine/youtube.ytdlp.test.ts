// The real yt-dlp binary (Debian's package; `.ci/run` installs it) against a local HTTP server,
// so the arguments we pass, the progress lines we parse and the error messages we classify are
// checked against the program itself. YouTube is out of reach here, so the local server stands in
// for it through the operator-only test origin (YOUTUBE_TEST_ORIGIN): a validated link's video id
// is fetched from `<origin>/<id>.mp4` by yt-dlp's generic extractor, through the same options.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readFile, readdir, stat } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempDir, makeVideo } from '../../../test-support/media-fixtures.ts';
import { parseYouTubeUrl, type YouTubeLink } from './youtube-url.ts';
import { VideoFetchError, fetchYouTubeVideo, ytDlpSource } from './youtube.ts';

const ytDlpPath = process.env.YTDLP_PATH ?? 'yt-dlp';
const installed = spawnSync(ytDlpPath, ['--version'], { encoding: 'utf8' }).status === 0;

/** A link the shared rule accepts (the only kind fetchYouTubeVideo takes). */
function youtubeLink(text: string): YouTubeLink {
  const link = parseYouTubeUrl(text);
  if (!link) throw new Error(`not a YouTube link: ${text}`);
  return link;
}

/** Runs yt-dlp to the end; its exit code and what it printed on stderr. */
function runYtDlp(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(ytDlpPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

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
    /** Every request the local server received, as `METHOD /path`. */
    const requests: string[] = [];
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
        requests.push(`${request.method ?? ''} ${request.url ?? ''}`);
        if (request.url === '/cadenceClip.mp4') {
          response.writeHead(200, { 'content-type': 'video/mp4', 'content-length': size });
          if (request.method === 'HEAD') response.end();
          else createReadStream(clip).pipe(response);
        } else if (request.url === '/cadenceSlow.mp4') {
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
        link: youtubeLink('https://www.youtube.com/shorts/cadenceClip'),
        testOrigin: base,
        outputDir,
        onProgress: (fraction) => progress.push(fraction),
      });
      expect(fetched.filePath).toBe(path.join(outputDir, 'cadenceClip.mp4'));
      expect(await sha256(fetched.filePath)).toBe(await sha256(clip));
      expect(fetched.metadata).toMatchObject({ id: 'cadenceClip', isLive: false, heatmap: null });
      expect(progress.at(-1)).toBe(1);
      expect(progress).toEqual([...progress].sort((a, b) => a - b));
      // Nothing but the video is left behind (no .part, .ytdl or format-suffixed leftovers).
      expect(await readdir(outputDir)).toEqual(['cadenceClip.mp4']);
    });

    it('reports a link that answers 404 as unavailable, with yt-dlp’s own words kept for the log', async () => {
      const outputDir = path.join(dir, 'missing');
      await mkdir(outputDir);
      const error = await fetchYouTubeVideo({
        ytDlpPath,
        link: youtubeLink('https://youtu.be/cadenceGone'),
        testOrigin: base,
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
        link: youtubeLink('https://youtu.be/cadenceClip'),
        testOrigin: `http://127.0.0.1:${port}`,
        outputDir,
      }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(VideoFetchError);
      expect(error).toMatchObject({ code: 'network' });
      expect((error as VideoFetchError).details).toMatch(/Connection refused/i);
    });

    it('without a test origin, lets only YouTube’s extractor run: any other URL is refused unfetched', async () => {
      // What the server passes in production. Were a non-YouTube URL ever to reach yt-dlp (or a
      // YouTube page to hand it on), the generic extractor that would fetch it is not loaded.
      const { extractorArgs, url } = ytDlpSource(youtubeLink('https://youtu.be/cadenceClip'));
      expect(url).toBe('https://www.youtube.com/watch?v=cadenceClip');
      const before = requests.length;
      for (const target of [`${base}/cadenceClip.mp4`, `${base}/youtu.be/cadenceClip`]) {
        const run = await runYtDlp([
          '--ignore-config',
          '--no-playlist',
          ...extractorArgs,
          '--dump-single-json',
          '--',
          target,
        ]);
        expect(run.code).not.toBe(0);
        expect(run.stderr).toMatch(/No suitable extractor|Unsupported URL/);
      }
      expect(requests.slice(before)).toEqual([]);
    });

    it('stops the download when cancelled: yt-dlp is killed and hangs up', async () => {
      const outputDir = path.join(dir, 'cancelled');
      await mkdir(outputDir);
      const controller = new AbortController();
      const fetching = fetchYouTubeVideo({
        ytDlpPath,
        link: youtubeLink('https://youtu.be/cadenceSlow'),
        testOrigin: base,
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
