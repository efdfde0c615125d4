import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  buildCompilationArgs,
  frameExactLengths,
  thumbnailPaths,
  thumbnailTime,
} from './compile.ts';

const extracts = [
  { startSeconds: 12.34, endSeconds: 19.01 },
  { startSeconds: 40, endSeconds: 47.5 },
  { startSeconds: 100.2, endSeconds: 146.03 },
];

describe('frameExactLengths', () => {
  it('keeps the total at the rounded sum whatever the pieces', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0.1, max: 20, noNaN: true }), { minLength: 1, maxLength: 20 }),
        (lengths) => {
          const intervals = lengths.map((length) => ({ startSeconds: 0, endSeconds: length }));
          const exact = frameExactLengths(intervals, 30);
          const total = lengths.reduce((sum, length) => sum + length, 0);
          const got = exact.reduce((sum, length) => sum + length, 0);
          expect(Math.abs(got - Math.round(total * 30) / 30)).toBeLessThan(1e-9);
          // Every piece is whole frames.
          for (const length of exact)
            expect(Math.abs(length * 30 - Math.round(length * 30))).toBeLessThan(1e-6);
        },
      ),
    );
  });
});

describe('buildCompilationArgs', () => {
  const base = { inputPath: '/media/in.mp4', extracts, outputPath: '/out/c.mp4' } as const;

  it('seeks one input per extract and writes faststart H.264 yuv420p + AAC', () => {
    const args = buildCompilationArgs({ ...base, layout: 'crop', hasAudio: true });
    expect(args.filter((a) => a === '-i')).toHaveLength(3);
    expect(args.slice(args.indexOf('-ss'), args.indexOf('-ss') + 2)).toEqual(['-ss', '12.340000']);
    expect(args).toEqual(expect.arrayContaining(['+faststart', 'libx264', 'yuv420p', 'aac']));
    expect(args.at(-1)).toBe('/out/c.mp4');
    const graph = args[args.indexOf('-filter_complex') + 1] ?? '';
    expect(graph).toContain('crop=1080:1920');
    expect(graph).toContain('concat=n=3:v=1:a=1');
    expect(graph).toContain('[2:a:0]');
    expect(graph).toMatch(/fade=t=in:st=0:d=0\.25/);
    expect(graph).toMatch(/afade=t=out/);
    // The output is cut at the frame-exact total of the extracts: 6.67 + 7.5 + 45.83 = 60.
    expect(args[args.indexOf('-t', args.indexOf('-filter_complex')) + 1]).toBe('60.000000');
  });

  it('blurs a copy behind the fitted frame in blur layout', () => {
    const graph = buildCompilationArgs({ ...base, layout: 'blur', hasAudio: true }).join(' ');
    expect(graph).toContain('boxblur');
    expect(graph).toContain('force_original_aspect_ratio=decrease');
    expect(graph).toContain('overlay');
  });

  it('makes a silent track when the source has no audio', () => {
    const graph = buildCompilationArgs({ ...base, layout: 'crop', hasAudio: false }).join(' ');
    expect(graph).toContain('anullsrc');
    expect(graph).not.toContain(':a:0]');
  });

  it('refuses an empty compilation', () => {
    expect(() =>
      buildCompilationArgs({ ...base, extracts: [], layout: 'crop', hasAudio: true }),
    ).toThrow(RangeError);
  });
});

describe('thumbnails', () => {
  it('are taken at the peak, inside the extract', () => {
    expect(thumbnailTime({ startSeconds: 10, endSeconds: 16, peakSeconds: 12, score: 1 })).toBe(
      12.5,
    );
    expect(
      thumbnailTime({ startSeconds: 10, endSeconds: 12.2, peakSeconds: 12, score: 1 }),
    ).toBeCloseTo(12.1);
    const paths = thumbnailPaths({
      inputPath: '/in.mp4',
      extracts: [{ startSeconds: 0, endSeconds: 5, peakSeconds: 2, score: 1 }],
      outputDir: '/thumbs',
    });
    expect(paths).toEqual(['/thumbs/extract-0.jpg']);
  });
});
