import { describe, expect, it } from 'vitest';
import {
  audioFramesToSeconds,
  buildVideoPassArgs,
  escapeFilterValue,
  videoFramesToSeconds,
} from './features.ts';
import { metadataNumber, parseMetadataPrint } from './metadata-print.ts';

/** What `metadata=mode=print` writes, for frames given as [time, {key: value}]. */
function printed(frames: [number, Record<string, string | number>][]): string {
  return frames
    .map(
      ([time, values], i) =>
        `frame:${i}    pts:${Math.round(time * 4)}       pts_time:${time}\n` +
        Object.entries(values)
          .map(([key, value]) => `${key}=${value}\n`)
          .join(''),
    )
    .join('');
}

describe('parseMetadataPrint', () => {
  it('reads frames and values, tolerating CRLF, junk and -inf', () => {
    const text =
      'frame:0    pts:0       pts_time:0\r\n' +
      'lavfi.astats.Overall.RMS_level=-inf\r\n' +
      'garbage without equals\n' +
      'frame:1    pts:4000    pts_time:0.25\n' +
      'lavfi.astats.Overall.RMS_level=-23.5\n' +
      'lavfi.weird=a=b\n' +
      'frame:x broken header\n';
    const frames = parseMetadataPrint(text);
    expect(frames.map((f) => f.time)).toEqual([0, 0.25]);
    const [first, second] = frames;
    expect(first && metadataNumber(first, 'lavfi.astats.Overall.RMS_level', -100)).toBe(-100);
    expect(second && metadataNumber(second, 'lavfi.astats.Overall.RMS_level')).toBe(-23.5);
    expect(second?.values.get('lavfi.weird')).toBe('a=b');
    expect(second && metadataNumber(second, 'lavfi.missing')).toBe(null);
  });
});

describe('audioFramesToSeconds', () => {
  it('averages window energy per second, keeps the peak, and pairs silences', () => {
    const frames = parseMetadataPrint(
      printed([
        [0, { 'lavfi.astats.Overall.RMS_level': -20, 'lavfi.astats.Overall.Peak_level': -6 }],
        [0.5, { 'lavfi.astats.Overall.RMS_level': -20, 'lavfi.astats.Overall.Peak_level': -3 }],
        [1, { 'lavfi.astats.Overall.RMS_level': '-inf', 'lavfi.silence_start': 1.0 }],
        [1.5, { 'lavfi.astats.Overall.RMS_level': '-inf', 'lavfi.silence_end': 1.9 }],
        [2.0, { 'lavfi.astats.Overall.RMS_level': -10, 'lavfi.silence_start': 2.6 }],
      ]),
    );
    const audio = audioFramesToSeconds(frames, 3);
    expect(audio.rmsDb[0]).toBeCloseTo(-20, 6);
    expect(audio.peakDb[0]).toBe(-3);
    expect(audio.rmsDb[1]).toBe(-100);
    expect(audio.rmsDb[2]).toBeCloseTo(-10, 6);
    // The last silence never ends: it runs to the end of the file.
    expect(audio.silences).toEqual([
      { startSeconds: 1, endSeconds: 1.9 },
      { startSeconds: 2.6, endSeconds: 3 },
    ]);
  });
});

describe('videoFramesToSeconds', () => {
  const frame = (mafd: number, score: number, high = 120) => ({
    'lavfi.scd.mafd': mafd,
    'lavfi.scd.score': score,
    'lavfi.signalstats.YHIGH': high,
  });

  it('counts cuts, takes the median motion, and flags black and frozen stretches', () => {
    const frames: [number, Record<string, number>][] = [];
    for (let i = 0; i < 40; i += 1) {
      const t = i / 4;
      if (t < 2)
        frames.push([t, frame(0.4, 0.05)]); // calm
      else if (t < 3)
        frames.push([t, frame(20, 15)]); // four cuts in second 2
      else if (t < 6)
        frames.push([t, frame(t === 3 ? 30 : 0, t === 3 ? 30 : 0)]); // still picture
      else frames.push([t, frame(t === 6 ? 40 : 0.01, t === 6 ? 40 : 0, 16)]); // black
    }
    const video = videoFramesToSeconds(parseMetadataPrint(printed(frames)), 10);
    expect(video.cuts.slice(0, 4)).toEqual([0, 0, 4, 1]);
    expect(video.motion[0]).toBeCloseTo(0.4);
    expect(video.motion[2]).toBe(20);
    expect(video.frozen.slice(0, 6)).toEqual([false, false, false, true, true, true]);
    expect(video.black.slice(5, 10)).toEqual([false, true, true, true, true]);
    expect(video.sceneCuts).toEqual([2, 2.25, 2.5, 2.75, 3, 6]);
  });
  it('does not call a dark shot inside a burst of cuts black', () => {
    const frames: [number, Record<string, number>][] = [];
    for (let i = 0; i < 12; i += 1) {
      const dark = i >= 4 && i < 8; // one second of dark frames, shorter than a black stretch
      frames.push([i / 4, frame(20, 20, dark ? 20 : 150)]);
    }
    const video = videoFramesToSeconds(parseMetadataPrint(printed(frames)), 3);
    expect(video.black).toEqual([false, false, false]);
  });
});

describe('filter arguments', () => {
  it('escapes metadata file paths for the filtergraph', () => {
    expect(escapeFilterValue('/tmp/a:b,c;d[e]')).toBe('/tmp/a\\\\:b\\,c\\;d\\[e\\]');
  });

  it('decodes the video once, at low rate and size, without a shell', () => {
    const args = buildVideoPassArgs('/videos/in put.mp4', '/tmp/meta.txt');
    // The input is named as a file, through the media allow-list (media-allow-list.ts).
    expect(args[args.indexOf('-i') + 1]).toBe('file:/videos/in put.mp4');
    expect(args[args.indexOf('-protocol_whitelist') + 1]).toBe('file');
    expect(args[args.indexOf('-vf') + 1]).toMatch(/^fps=4,scale=160:-2/);
    expect(args.indexOf('-skip_loop_filter')).toBeLessThan(args.indexOf('-i'));
  });
});
