import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeVideo } from '../modules/memes/engine/analyze.ts';
import { compileHighlights, extractThumbnails } from '../modules/memes/engine/compile.ts';
import { renderStory } from '../modules/stories/render/render-story.ts';
import { createTempDir, makeVideo, testBinaries } from '../test-support/media-fixtures.ts';
import { allowedDemuxerOf, mediaInputArgs } from './media-allow-list.ts';
import { MediaProbeError, probeVideo } from './probe.ts';
import { extractThumbnail } from './thumbnails.ts';

const { ffmpeg, ffprobe } = testBinaries;

let dir: string;
let cleanup: () => Promise<void>;
/** A playlist whose only segment is a real video elsewhere on disk. */
let playlist: string;

beforeAll(async () => {
  ({ dir, cleanup } = await createTempDir('cadence-allow-list-'));
  const elsewhere = await makeVideo(join(dir, 'elsewhere.mp4'), { width: 432, height: 768 });
  playlist = join(dir, 'playlist.mp4');
  await writeFile(
    playlist,
    `#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2.0,\nfile://${elsewhere}\n#EXT-X-ENDLIST\n`,
  );
});
afterAll(async () => {
  await cleanup();
});

describe('the media allow-list', () => {
  it('names the demuxer of each allowed format_name, and nothing else', () => {
    expect(allowedDemuxerOf('mov,mp4,m4a,3gp,3g2,mj2')).toBe('mov');
    expect(allowedDemuxerOf('matroska,webm')).toBe('matroska');
    expect(allowedDemuxerOf('mpegts')).toBe('mpegts');
    expect(allowedDemuxerOf('avi')).toBe('avi');
    for (const other of ['hls', 'dash', 'concat', 'image2', 'tty', 'mpegtsraw', 'movie', '']) {
      expect(allowedDemuxerOf(other)).toBeNull();
    }
  });

  it('opens an input as file:<absolute path> under both whitelists', () => {
    expect(mediaInputArgs('concat:a.mp4|b.mp4', 'mov')).toEqual([
      ...['-protocol_whitelist', 'file', '-format_whitelist', 'mov,matroska,mpegts,avi'],
      ...['-f', 'mov', '-i', `file:${join(process.cwd(), 'concat:a.mp4|b.mp4')}`],
    ]);
  });

  it('still reads a file whose name looks like a protocol', async () => {
    const odd = await makeVideo(join(dir, 'subfile:odd.mp4'), { width: 360, height: 640 });
    expect(await probeVideo(ffprobe, odd)).toMatchObject({ width: 360, height: 640 });
  });
});

describe('every ffmpeg step refuses a playlist given as its input', () => {
  it('probe', async () => {
    await expect(probeVideo(ffprobe, playlist)).rejects.toBeInstanceOf(MediaProbeError);
  });

  it('thumbnails (upload and meme extracts), writing nothing', async () => {
    await expect(
      extractThumbnail(ffmpeg, playlist, join(dir, 'thumbs-upload.jpg'), { atSeconds: 1 }),
    ).rejects.toThrow(/Format not on whitelist|exited with code/);
    await expect(
      extractThumbnails({
        ffmpegPath: ffmpeg,
        inputPath: playlist,
        extracts: [{ startSeconds: 0, endSeconds: 2, peakSeconds: 1, score: 1 }],
        outputDir: dir,
        prefix: 'thumbs-meme-',
      }),
    ).rejects.toThrow(/Format not on whitelist|exited with code/);
    expect((await readdir(dir)).filter((name) => name.startsWith('thumbs'))).toEqual([]);
  });

  it('meme analysis and compilation', async () => {
    await expect(
      analyzeVideo({ ffmpegPath: ffmpeg, ffprobePath: ffprobe, inputPath: playlist }),
    ).rejects.toThrow();
    const outputPath = join(dir, 'compilation.mp4');
    await expect(
      compileHighlights({
        ffmpegPath: ffmpeg,
        inputPath: playlist,
        extracts: [{ startSeconds: 0, endSeconds: 2 }],
        layout: 'crop',
        hasAudio: false,
        outputPath,
        preset: 'ultrafast',
      }),
    ).rejects.toThrow(/Format not on whitelist|exited with code/);
    expect(await readdir(dir)).not.toContain('compilation.mp4');
  });

  it('story render, even with a stored probe that says mp4', async () => {
    const real = await probeVideo(
      ffprobe,
      await makeVideo(join(dir, 'bottom.mp4'), { width: 360, height: 640 }),
    );
    const outputPath = join(dir, 'story.mp4');
    await expect(
      renderStory({
        ffmpegPath: ffmpeg,
        top: { path: playlist, probe: real },
        bottom: { path: join(dir, 'bottom.mp4'), probe: real },
        outputPath,
        mixBottomAudio: false,
        capabilities: { zscale: false },
      }),
    ).rejects.toThrow(/exited with code/);
    expect(await readdir(dir)).not.toContain('story.mp4');
  });
});
