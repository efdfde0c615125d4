import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isYouTubeUrl, parseYouTubeUrl, type YouTubeLink } from './youtube-url.ts';
import {
  VideoFetchError,
  classifyYtDlpFailure,
  fetchYouTubeVideo,
  parseYtDlpMetadata,
  parseYtDlpProgress,
  ytDlpSource,
} from './youtube.ts';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), '__fixtures__');
const fixturePath = (name: string) => path.join(fixtures, name);
const readFixture = async (name: string): Promise<unknown> =>
  JSON.parse(await readFile(fixturePath(name), 'utf8')) as unknown;

/** A link the shared rule accepts (the only kind fetchYouTubeVideo takes). */
function youtubeLink(text: string): YouTubeLink {
  const link = parseYouTubeUrl(text);
  if (!link) throw new Error(`not a YouTube link: ${text}`);
  return link;
}

describe('the link rule the engine uses', () => {
  it('is the shared one: YouTube video links only, as their canonical watch URL', () => {
    expect(parseYouTubeUrl('youtube.com/shorts/dQw4w9WgXcQ')?.url).toBe(
      'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
    );
    expect(isYouTubeUrl('https://youtu.be/dQw4w9WgXcQ')).toBe(true);
    expect(isYouTubeUrl('http://127.0.0.1:8080/youtu.be/x')).toBe(false);
  });
});

describe('ytDlpSource', () => {
  const link = youtubeLink('https://youtu.be/dQw4w9WgXcQ?si=abc');

  it('gives yt-dlp the canonical URL, for the YouTube extractor alone', () => {
    expect(ytDlpSource(link)).toEqual({
      extractorArgs: ['--use-extractors', 'youtube'],
      url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
    });
  });

  it("with an operator's test origin, fetches the same id there and nothing else", () => {
    expect(ytDlpSource(link, 'http://127.0.0.1:4567')).toEqual({
      extractorArgs: ['--use-extractors', 'generic'],
      url: 'http://127.0.0.1:4567/dQw4w9WgXcQ.mp4',
    });
  });
});

describe('parseYtDlpMetadata', () => {
  it('reads id, title, duration and the most-replayed heatmap', async () => {
    const metadata = parseYtDlpMetadata(await readFixture('yt-dlp-with-heatmap.json'));
    expect(metadata).toMatchObject({
      id: 'dQw4w9WgXcQ',
      title: 'Rick Astley - Never Gonna Give You Up (Official Music Video)',
      durationSeconds: 212,
      downloadCount: 2,
    });
    expect(metadata.heatmap).toHaveLength(100);
    const hottest = metadata.heatmap?.reduce((a, b) => (b.value > a.value ? b : a));
    expect(hottest).toEqual({ startSeconds: 129.32, endSeconds: 131.44, value: 1 });
  });

  it('gives a null heatmap when yt-dlp has none', async () => {
    const metadata = parseYtDlpMetadata(await readFixture('yt-dlp-without-heatmap.json'));
    expect(metadata).toEqual({
      id: 'jNQXAC9IVRw',
      title: 'Me at the zoo',
      durationSeconds: 19,
      isLive: false,
      heatmap: null,
      downloadCount: 1,
    });
    expect(parseYtDlpMetadata({ id: 'x', title: 't', duration: 5, heatmap: null }).heatmap).toBe(
      null,
    );
  });

  it('drops malformed heatmap buckets instead of failing', () => {
    const metadata = parseYtDlpMetadata({
      id: 'x',
      duration: 30,
      heatmap: [
        { start_time: 0, end_time: 10, value: 0.5 },
        { start_time: 'soon', end_time: 20, value: 1 },
        { start_time: 20, end_time: 20, value: 1 },
      ],
    });
    expect(metadata.heatmap).toEqual([{ startSeconds: 0, endSeconds: 10, value: 0.5 }]);
  });

  it('refuses what is not a video description', () => {
    expect(() => parseYtDlpMetadata({ title: 'no id' })).toThrow();
    expect(() => parseYtDlpMetadata('nope')).toThrow();
  });

  it('tells live and upcoming streams from videos of unknown duration', () => {
    expect(parseYtDlpMetadata({ id: 'live', title: 'Live', is_live: true })).toMatchObject({
      durationSeconds: null,
      isLive: true,
    });
    expect(parseYtDlpMetadata({ id: 'soon', live_status: 'is_upcoming' }).isLive).toBe(true);
    expect(parseYtDlpMetadata({ id: 'vod', duration: 9, live_status: 'was_live' }).isLive).toBe(
      false,
    );
    // A direct file link: yt-dlp's generic extractor knows no duration, yet it is a video.
    expect(parseYtDlpMetadata({ id: 'clip', title: 'clip', direct: true })).toMatchObject({
      durationSeconds: null,
      isLive: false,
    });
  });
});

describe('parseYtDlpProgress', () => {
  it('reads percentages from --newline progress lines', () => {
    expect(parseYtDlpProgress('[download]  42.0% of   10.00MiB at    1.00MiB/s ETA 00:05')).toBe(
      42,
    );
    expect(parseYtDlpProgress('[download] 100% of 10.00MiB in 00:00:03')).toBe(100);
    expect(parseYtDlpProgress('[download] Destination: /tmp/x.mp4')).toBe(null);
    expect(parseYtDlpProgress('[youtube] dQw4w9WgXcQ: Downloading webpage')).toBe(null);
  });
});

describe('classifyYtDlpFailure', () => {
  // Regression: a server that cannot reach YouTube ended with the vague 'failed' message.
  it.each([
    // yt-dlp 2023.03 (Debian's, urllib), as printed here for an unknown host, a closed port and a
    // server that never answers.
    "ERROR: [generic] None: Unable to download webpage: <urlopen error [Errno -2] Name or service not known> (caused by URLError(gaierror(-2, 'Name or service not known')))",
    "ERROR: [youtube] dQw4w9WgXcQ: Unable to download webpage: <urlopen error [Errno -3] Temporary failure in name resolution> (caused by URLError(gaierror(-3, 'Temporary failure in name resolution')))",
    "ERROR: [generic] None: Unable to download webpage: <urlopen error [Errno 111] Connection refused> (caused by URLError(ConnectionRefusedError(111, 'Connection refused')))",
    "ERROR: [generic] None: Unable to download webpage: timed out (caused by TimeoutError('timed out')); please report this issue on  https://github.com/yt-dlp/yt-dlp/issues?q= , filling out the appropriate issue template. Confirm you are on the latest version using  yt-dlp -U",
    'ERROR: [youtube] dQw4w9WgXcQ: Unable to download webpage: <urlopen error [Errno 101] Network is unreachable>',
    'ERROR: [youtube] dQw4w9WgXcQ: Unable to download webpage: <urlopen error [Errno 113] No route to host>',
    // Newer yt-dlp (requests and urllib3).
    "ERROR: [youtube] dQw4w9WgXcQ: Unable to download API page: HTTPSConnectionPool(host='www.youtube.com', port=443): Max retries exceeded with url: /youtubei/v1/player (Caused by NameResolutionError(\"<urllib3.connection.HTTPSConnection object at 0x7f>: Failed to resolve 'www.youtube.com' ([Errno -3] Temporary failure in name resolution)\"))",
    "ERROR: [youtube] dQw4w9WgXcQ: Unable to download webpage: ('Connection aborted.', ConnectionResetError(104, 'Connection reset by peer'))",
    "ERROR: [youtube] dQw4w9WgXcQ: Unable to download webpage: HTTPSConnectionPool(host='www.youtube.com', port=443): Read timed out. (read timeout=20.0)",
  ])('calls a network failure network: %s', (summary) => {
    expect(classifyYtDlpFailure(summary)).toBe('network');
  });

  it('keeps videos nobody can fetch unavailable, and the rest failed', () => {
    expect(classifyYtDlpFailure('ERROR: [youtube] abc: Video unavailable')).toBe('unavailable');
    expect(classifyYtDlpFailure('ERROR: [youtube] abc: Private video. Sign in if you…')).toBe(
      'unavailable',
    );
    expect(
      classifyYtDlpFailure(
        "ERROR: [generic] None: Unable to download webpage: HTTP Error 404: Not Found (caused by <HTTPError 404: 'Not Found'>)",
      ),
    ).toBe('unavailable');
    expect(classifyYtDlpFailure('ERROR: Postprocessing: ffprobe and ffmpeg not found')).toBe(
      'failed',
    );
  });
});

describe('fetchYouTubeVideo', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'cadence-ytdlp-test-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /**
   * A stand-in yt-dlp: prints the fixture for --dump-single-json; otherwise prints progress for
   * two files (video, then audio, as a merged download does) and writes the -o file. Each call's
   * arguments are appended to calls.jsonl so the test can check what we asked for.
   */
  async function fakeYtDlp(fixture: string, behaviour: 'ok' | 'unavailable' = 'ok') {
    const script = path.join(dir, 'yt-dlp');
    const source = `#!${process.execPath}
const fs = require('node:fs');
const args = process.argv.slice(2);
fs.appendFileSync(${JSON.stringify(path.join(dir, 'calls.jsonl'))}, JSON.stringify(args) + '\\n');
if (${JSON.stringify(behaviour)} === 'unavailable') {
  process.stderr.write('ERROR: [youtube] abc: Video unavailable. This video has been removed by the uploader\\n');
  process.exit(1);
}
if (args.includes('--dump-single-json')) {
  process.stdout.write(fs.readFileSync(${JSON.stringify(fixturePath(fixture))}, 'utf8'));
  process.exit(0);
}
const template = args[args.indexOf('-o') + 1];
for (const file of ['f136.mp4', 'f140.m4a']) {
  console.log('[download] Destination: ' + template.replace('%(ext)s', file));
  for (const pct of ['0.0', '42.0', '100.0']) console.log('[download]  ' + pct + '% of 1.00MiB at 1.00MiB/s ETA 00:00');
}
console.log('[Merger] Merging formats into "' + template.replace('%(ext)s', 'mp4') + '"');
fs.writeFileSync(template.replace('%(ext)s', 'mp4'), 'not really a video');
`;
    await writeFile(script, source);
    await chmod(script, 0o755);
    return script;
  }

  const calls = async (): Promise<string[][]> =>
    (await readFile(path.join(dir, 'calls.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as string[]);

  it('reports a missing downloader as downloader_missing', async () => {
    const error = await fetchYouTubeVideo({
      ytDlpPath: path.join(dir, 'no-such-yt-dlp'),
      link: youtubeLink('https://youtu.be/dQw4w9WgXcQ'),
      outputDir: dir,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VideoFetchError);
    expect(error).toMatchObject({ code: 'downloader_missing' });
  });

  it('downloads with metadata, heatmap and monotonic progress', async () => {
    const ytDlpPath = await fakeYtDlp('yt-dlp-with-heatmap.json');
    const outputDir = path.join(dir, 'out');
    await mkdir(outputDir);
    const progress: number[] = [];
    const fetched = await fetchYouTubeVideo({
      ytDlpPath,
      link: youtubeLink('https://m.youtube.com/watch?v=dQw4w9WgXcQ&feature=share'),
      outputDir,
      ffmpegPath: '/opt/ffmpeg/bin/ffmpeg',
      onProgress: (fraction) => progress.push(fraction),
    });
    expect(fetched.filePath).toBe(path.join(outputDir, 'dQw4w9WgXcQ.mp4'));
    expect(await readFile(fetched.filePath, 'utf8')).toBe('not really a video');
    expect(fetched.metadata.heatmap).toHaveLength(100);
    // Two files of 0→100 % each make one bar from 0 to 1 that never goes back.
    expect(progress).toEqual([0.21, 0.5, 0.71, 1]);
    const [dump, download] = await calls();
    expect(dump).toContain('--dump-single-json');
    expect(download).toContain('--newline');
    expect(download?.[download.indexOf('--ffmpeg-location') + 1]).toBe('/opt/ffmpeg/bin/ffmpeg');
    // Both runs: one video (no playlist), YouTube's extractor only, and the canonical URL last,
    // after '--' so that it can never be read as an option.
    for (const args of [dump, download]) {
      expect(args).toContain('--no-playlist');
      expect(args?.[args.indexOf('--use-extractors') + 1]).toBe('youtube');
      expect(args?.slice(-2)).toEqual(['--', 'https://www.youtube.com/watch?v=dQw4w9WgXcQ']);
    }
  });

  it('maps yt-dlp errors about removed or private videos to unavailable', async () => {
    const ytDlpPath = await fakeYtDlp('yt-dlp-with-heatmap.json', 'unavailable');
    const error = await fetchYouTubeVideo({
      ytDlpPath,
      link: youtubeLink('https://youtu.be/abcDEF12345'),
      outputDir: dir,
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'unavailable',
      details: expect.stringContaining('Video unavailable') as unknown,
    });
  });

  it('refuses videos over the maximum before downloading anything', async () => {
    const ytDlpPath = await fakeYtDlp('yt-dlp-too-long.json');
    const error = await fetchYouTubeVideo({
      ytDlpPath,
      link: youtubeLink('https://youtu.be/lofi24h0000'),
      outputDir: dir,
      maxDurationSeconds: 3 * 3600,
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'too_long' });
    expect(await calls()).toHaveLength(1);
  });

  it('fails with failed when yt-dlp prints something that is not metadata', async () => {
    const script = path.join(dir, 'yt-dlp');
    await writeFile(script, `#!${process.execPath}\nconsole.log('<html>rate limited</html>');\n`);
    await chmod(script, 0o755);
    const error = await fetchYouTubeVideo({
      ytDlpPath: script,
      link: youtubeLink('https://youtu.be/abcDEF12345'),
      outputDir: dir,
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'failed' });
  });
});
