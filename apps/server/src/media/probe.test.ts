import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMediaTool } from './ffmpeg.ts';
import {
  MAX_PACKET_GAP_SECONDS,
  MediaProbeError,
  coverageSamples,
  firstUncoveredSample,
  lastPacketEndSeconds,
  parseFfprobeOutput,
  probeVideo,
  validateForTikTok,
} from './probe.ts';
import type { ProbedVideo } from './probe.ts';
import { extractThumbnail } from './thumbnails.ts';
import {
  createTempDir,
  makeAudioOnly,
  postableProbe,
  makeNotAVideo,
  makeVideo,
  testBinaries,
} from '../test-support/media-fixtures.ts';

const { ffmpeg, ffprobe } = testBinaries;

let dir: string;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ dir, cleanup } = await createTempDir());
});
afterAll(async () => {
  await cleanup();
});

describe('probeVideo on real files', () => {
  it('reads codec, size, fps, duration, audio and file size of a plain MP4', async () => {
    const path = await makeVideo(join(dir, 'plain.mp4'), {
      width: 480,
      height: 360,
      fps: 25,
      durationSeconds: 2,
      audio: true,
    });
    const probe = await probeVideo(ffprobe, path);
    expect(probe).toMatchObject({
      videoCodec: 'h264',
      width: 480,
      height: 360,
      displayWidth: 480,
      displayHeight: 360,
      rotation: 0,
      sampleAspectRatio: 1,
      fps: 25,
      pixelFormat: 'yuv420p',
      bitDepth: 8,
      hasAudio: true,
      audioCodec: 'aac',
    });
    expect(probe.container.split(',')).toContain('mp4');
    expect(probe.durationSeconds).toBeCloseTo(2, 1);
    expect(probe.sizeBytes).toBe((await stat(path)).size);
    expect(validateForTikTok(probe)).toEqual([]);
  });

  it('turns a portrait phone clip (display matrix −90°) into a 90° clockwise rotation and swaps the display size', async () => {
    const path = await makeVideo(join(dir, 'portrait.mp4'), {
      width: 640,
      height: 360,
      displayMatrixRotation: -90,
    });
    const probe = await probeVideo(ffprobe, path);
    expect(probe).toMatchObject({
      width: 640,
      height: 360,
      rotation: 90,
      displayWidth: 360,
      displayHeight: 640,
    });
  });

  it('normalises a +90° display matrix to 270 and 180° to 180', async () => {
    const ccw = await probeVideo(
      ffprobe,
      await makeVideo(join(dir, 'ccw.mp4'), { displayMatrixRotation: 90 }),
    );
    expect(ccw).toMatchObject({ rotation: 270, displayWidth: 240, displayHeight: 320 });
    const upsideDown = await probeVideo(
      ffprobe,
      await makeVideo(join(dir, 'upside-down.mp4'), { displayMatrixRotation: 180 }),
    );
    expect(upsideDown).toMatchObject({ rotation: 180, displayWidth: 320, displayHeight: 240 });
  });

  it('applies a non-square sample aspect ratio to the display width, before rotation', async () => {
    const anamorphic = await probeVideo(
      ffprobe,
      await makeVideo(join(dir, 'anamorphic.mp4'), { width: 480, height: 360, sar: '4/3' }),
    );
    expect(anamorphic.sampleAspectRatio).toBeCloseTo(4 / 3, 5);
    expect(anamorphic).toMatchObject({ width: 480, displayWidth: 640, displayHeight: 360 });

    const rotatedAnamorphic = await probeVideo(
      ffprobe,
      await makeVideo(join(dir, 'anamorphic-rotated.mp4'), {
        width: 480,
        height: 360,
        sar: '4/3',
        displayMatrixRotation: -90,
      }),
    );
    expect(rotatedAnamorphic).toMatchObject({ displayWidth: 360, displayHeight: 640 });
  });

  it('keeps odd sizes exactly', async () => {
    const probe = await probeVideo(
      ffprobe,
      await makeVideo(join(dir, 'odd.mp4'), { width: 721, height: 405 }),
    );
    expect(probe).toMatchObject({ width: 721, height: 405, displayWidth: 721 });
    expect(validateForTikTok(probe)).toEqual([]);
  });

  it('reports 10-bit depth and the HDR transfer', async () => {
    const probe = await probeVideo(
      ffprobe,
      await makeVideo(join(dir, 'hdr.mp4'), { tenBit: true, hdr: 'pq' }),
    );
    expect(probe).toMatchObject({
      bitDepth: 10,
      pixelFormat: 'yuv420p10le',
      colorTransfer: 'smpte2084',
    });
  });

  it('derives the bit depth from the pixel format when HEVC omits bits_per_raw_sample', async () => {
    const probe = await probeVideo(
      ffprobe,
      await makeVideo(join(dir, 'hevc10.mp4'), { codec: 'hevc', tenBit: true, durationSeconds: 1 }),
    );
    expect(probe).toMatchObject({ videoCodec: 'hevc', bitDepth: 10 });
  });

  it('gives a variable-frame-rate clip its average rate', async () => {
    const probe = await probeVideo(
      ffprobe,
      await makeVideo(join(dir, 'vfr.mp4'), { vfr: true, durationSeconds: 3 }),
    );
    // 30 fps for 1 s, then 20 fps for 2 s: 70 frames over 3 s.
    expect(probe.fps).toBeGreaterThan(21);
    expect(probe.fps).toBeLessThan(25);
  });

  it('accepts WebM/VP9 with Opus and refuses Matroska/H.264 as a container', async () => {
    const webm = await probeVideo(
      ffprobe,
      await makeVideo(join(dir, 'clip.webm'), { codec: 'vp9', audio: true, durationSeconds: 1 }),
    );
    expect(webm).toMatchObject({ videoCodec: 'vp9', audioCodec: 'opus' });
    expect(validateForTikTok(webm)).not.toContain('unsupported_container');

    const mkv = await probeVideo(
      ffprobe,
      await makeVideo(join(dir, 'clip.mkv'), { durationSeconds: 1 }),
    );
    expect(validateForTikTok(mkv)).toContain('unsupported_container');
  });

  it('flags an AVI/MPEG-4 Part 2 file as unsupported container and codec', async () => {
    const probe = await probeVideo(
      ffprobe,
      await makeVideo(join(dir, 'old.avi'), { codec: 'mpeg4', width: 480, height: 360 }),
    );
    expect(validateForTikTok(probe)).toEqual(['unsupported_container', 'unsupported_codec']);
  });

  it('rejects an audio-only file, a text file and a missing file as not_a_video', async () => {
    const audio = await makeAudioOnly(join(dir, 'sound.m4a'));
    const text = await makeNotAVideo(join(dir, 'fake.mp4'));
    for (const path of [audio, text, join(dir, 'missing.mp4')]) {
      const error: unknown = await probeVideo(ffprobe, path).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(MediaProbeError);
      expect(error).toMatchObject({ code: 'not_a_video' });
    }
  });
});

describe('start time and the duration the packets show', () => {
  it('keeps where an MPEG-TS starts (~1.4 s) and that an MP4 starts at 0', async () => {
    const mp4 = await makeVideo(join(dir, 'starts-at-zero.mp4'), { durationSeconds: 2 });
    const ts = join(dir, 'starts-late.ts');
    await runMediaTool(ffmpeg, [
      ...['-v', 'error', '-y', '-i', mp4, '-c', 'copy', '-f', 'mpegts'],
      ts,
    ]);
    expect((await probeVideo(ffprobe, mp4)).startTimeSeconds).toBe(0);
    const probe = await probeVideo(ffprobe, ts);
    expect(probe.startTimeSeconds).toBeGreaterThan(1);
    expect(probe.durationSeconds).toBeCloseTo(2, 1);
  });

  it('reads the end of the last packet relative to the start, skipping untimed ones', () => {
    const csv = ['1.400000,1.366667,0.033333', 'N/A,3.000000,0.5,side_data', 'N/A,N/A,N/A', ''];
    expect(lastPacketEndSeconds(csv.join('\n'), 1.4)).toBeCloseTo(2.1, 6);
    expect(lastPacketEndSeconds('N/A,N/A,N/A\n', 0)).toBeNull();
  });

  it('accepts real files whose keyframes are further apart than the allowed packet gap', async () => {
    // A keyframe every 30 s (screen recorders, some cameras): seeking lands well before most
    // sampled instants, and the packets up to them must still be read.
    for (const name of ['long-gop.mp4', 'long-gop.ts']) {
      const file = join(dir, name);
      await runMediaTool(ffmpeg, [
        ...['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=320x240:rate=30'],
        ...['-t', '60', '-c:v', 'libx264', '-preset', 'ultrafast', '-g', '900', file],
      ]);
      expect((await probeVideo(ffprobe, file)).durationSeconds).toBeCloseTo(60, 0);
    }
  });

  it('samples one random instant per stratum of the claimed duration, at most 32', () => {
    expect(coverageSamples(1.4, 4, () => 0.5)).toEqual([3.4]);
    const long = coverageSamples(0, 10_004, () => 0);
    expect(long).toHaveLength(32);
    expect(long[1]).toBeCloseTo(10_004 / 32, 6);
    expect(coverageSamples(0, 10_004, () => 0.999).at(-1)).toBeLessThan(10_004);
  });

  it('finds an instant with no packet within a few seconds, as in a timestamp jump', () => {
    // Packets of 0–4 s then 10,000–10,004 s (what ffprobe prints after seeking into the gap).
    const csv = ['1.400000,1.400000', '5.366667,', '', '10001.400000,10001.366667'].join('\n');
    expect(firstUncoveredSample(csv, [3, 5000, 10_002])).toBe(5000);
    expect(firstUncoveredSample(csv, [3, 10_002])).toBeNull();
    expect(firstUncoveredSample(csv, [5.366667 + MAX_PACKET_GAP_SECONDS + 0.01])).not.toBeNull();
  });
});

describe('parseFfprobeOutput', () => {
  it('ignores cover art (attached_pic) when looking for the video stream', () => {
    const json = {
      streams: [
        { codec_type: 'audio', codec_name: 'aac' },
        {
          codec_type: 'video',
          codec_name: 'mjpeg',
          width: 600,
          height: 600,
          disposition: { attached_pic: 1 },
        },
      ],
      format: { format_name: 'mov,mp4,m4a,3gp,3g2,mj2', duration: '10.0', size: '1000' },
    };
    expect(() => parseFfprobeOutput(json, 1000)).toThrow(MediaProbeError);
  });

  it('uses the legacy rotate tag when there is no display matrix, and r_frame_rate when avg is 0/0', () => {
    const probe = parseFfprobeOutput(
      {
        streams: [
          {
            codec_type: 'video',
            codec_name: 'h264',
            width: 1920,
            height: 1080,
            avg_frame_rate: '0/0',
            r_frame_rate: '30000/1001',
            sample_aspect_ratio: '0:1',
            tags: { rotate: '90' },
          },
        ],
        format: { format_name: 'mov,mp4,m4a,3gp,3g2,mj2', duration: '5.5' },
      },
      1234,
    );
    expect(probe).toMatchObject({
      rotation: 90,
      displayWidth: 1080,
      displayHeight: 1920,
      sampleAspectRatio: 1,
      sizeBytes: 1234,
      durationSeconds: 5.5,
      hasAudio: false,
      audioCodec: null,
      colorTransfer: null,
    });
    expect(probe.fps).toBeCloseTo(29.97, 2);
  });

  it('refuses output that is not an ffprobe document', () => {
    expect(() => parseFfprobeOutput({ streams: 'nope' }, 0)).toThrow(MediaProbeError);
  });
});

describe('validateForTikTok', () => {
  const good: ProbedVideo = {
    ...postableProbe(10_000_000),
    durationSeconds: 30,
    hasAudio: true,
    audioCodec: 'aac',
  };

  it.each([
    [{ durationSeconds: 600.5 }, 'duration_too_long'],
    [{ width: 359 }, 'too_small'],
    [{ height: 4097 }, 'too_large'],
    [{ fps: 22.5 }, 'fps_out_of_range'],
    [{ fps: 120 }, 'fps_out_of_range'],
    [{ sizeBytes: 4 * 1024 ** 3 + 1 }, 'file_too_big'],
    [{ videoCodec: 'av1' }, 'unsupported_codec'],
    [{ container: 'avi' }, 'unsupported_container'],
  ] as const)('%o → %s', (change, problem) => {
    expect(validateForTikTok({ ...good, ...change })).toEqual([problem]);
  });

  it('accepts the limits themselves (360, 4096, 23.976 and 60 fps, 600 s)', () => {
    expect(
      validateForTikTok({ ...good, width: 360, height: 4096, fps: 23.976, durationSeconds: 600 }),
    ).toEqual([]);
    expect(validateForTikTok({ ...good, fps: 60 })).toEqual([]);
  });

  it("honours a creator's shorter maximum duration", () => {
    expect(validateForTikTok(good, { maxDurationSeconds: 15 })).toEqual(['duration_too_long']);
  });
});

describe('extractThumbnail', () => {
  it('writes an upright JPEG of the requested width for a rotated, anamorphic video', async () => {
    const input = await makeVideo(join(dir, 'thumb-src.mp4'), {
      width: 480,
      height: 360,
      sar: '4/3',
      displayMatrixRotation: -90,
      durationSeconds: 2,
    });
    const output = join(dir, 'thumb.jpg');
    await extractThumbnail(ffmpeg, input, output, { durationSeconds: 2, width: 180 });
    // A JPEG is not a video: read its size with a plain ffprobe, not through the allow-list.
    const { stdout } = await runMediaTool(ffprobe, [
      ...['-v', 'error', '-show_entries', 'stream=codec_name,width,height', '-of', 'csv=p=0'],
      output,
    ]);
    // Display 360×640 scaled to width 180 → 180×320.
    expect(stdout.trim()).toBe('mjpeg,180,320');
  });

  it('falls back to the first frame when asked for a moment past the end', async () => {
    const input = await makeVideo(join(dir, 'short.mp4'), { durationSeconds: 1 });
    const output = join(dir, 'late.jpg');
    await extractThumbnail(ffmpeg, input, output, { atSeconds: 30 });
    expect((await stat(output)).size).toBeGreaterThan(0);
  });
});
