import { describe, expect, it } from 'vitest';
import {
  buildStoryRenderArgs,
  halfFilterChain,
  storyDurationSeconds,
  type StoryClipProbe,
  type StoryRenderInput,
} from './story-render-args.ts';

const baseProbe: StoryClipProbe = {
  container: 'mov,mp4,m4a,3gp,3g2,mj2',
  videoCodec: 'h264',
  width: 1920,
  height: 1080,
  displayWidth: 1920,
  displayHeight: 1080,
  rotation: 0,
  sampleAspectRatio: 1,
  fps: 30,
  pixelFormat: 'yuv420p',
  bitDepth: 8,
  durationSeconds: 20,
  sizeBytes: 1_000_000,
  hasAudio: true,
  audioCodec: 'aac',
  colorTransfer: 'bt709',
};

function input(
  top: Partial<StoryClipProbe> = {},
  bottom: Partial<StoryClipProbe> = {},
  extra: Partial<StoryRenderInput> = {},
): StoryRenderInput {
  return {
    top: { path: '/media/top clip.mp4', probe: { ...baseProbe, ...top } },
    bottom: { path: '/media/bottom.mov', probe: { ...baseProbe, ...bottom } },
    outputPath: '/out/story.mp4',
    mixBottomAudio: false,
    ...extra,
  };
}

function valueAfter(args: string[], flag: string): string | undefined {
  const index = args.indexOf(flag);
  return index === -1 ? undefined : args[index + 1];
}

function graphOf(args: string[]): string {
  const graph = valueAfter(args, '-filter_complex');
  if (graph === undefined) throw new Error('no -filter_complex');
  return graph;
}

/** The filter chain of one labelled branch, e.g. '[0:v]…[top]'. */
function branch(args: string[], output: string): string {
  const found = graphOf(args)
    .split(';')
    .find((part) => part.endsWith(`[${output}]`));
  if (!found) throw new Error(`no branch ending in [${output}]`);
  return found;
}

describe('buildStoryRenderArgs', () => {
  it('produces a 1080×1920, 30 fps, H.264/AAC, faststart MP4 with progress on stdout', () => {
    const args = buildStoryRenderArgs(input());
    expect(branch(args, 'vout')).toBe('[top][bottom]vstack=inputs=2,setsar=1[vout]');
    expect(valueAfter(args, '-c:v')).toBe('libx264');
    expect(valueAfter(args, '-pix_fmt')).toBe('yuv420p');
    expect(valueAfter(args, '-c:a')).toBe('aac');
    expect(valueAfter(args, '-b:a')).toBe('128k');
    expect(valueAfter(args, '-ar')).toBe('48000');
    expect(valueAfter(args, '-ac')).toBe('2');
    expect(valueAfter(args, '-movflags')).toBe('+faststart');
    expect(valueAfter(args, '-progress')).toBe('pipe:1');
    expect(args).toContain('-nostats');
    expect(args.at(-1)).toBe('/out/story.mp4');
    for (const half of ['top', 'bottom']) {
      expect(branch(args, half)).toContain(
        'scale=1080:960:force_original_aspect_ratio=increase,crop=1080:960',
      );
      expect(branch(args, half)).toContain('fps=30');
    }
  });

  it('passes paths as single arguments, spaces included (no shell involved)', () => {
    const args = buildStoryRenderArgs(input());
    expect(valueAfter(args, '-i')).toBe('file:/media/top clip.mp4');
  });

  it('takes the top from input 0 and loops the bottom (input 1) endlessly', () => {
    const args = buildStoryRenderArgs(input());
    const inputs = args.flatMap((arg, index) => (arg === '-i' ? [args[index + 1]] : []));
    expect(inputs).toEqual(['file:/media/top clip.mp4', 'file:/media/bottom.mov']);
    // -stream_loop belongs to the input after it: the bottom's, not the top's.
    const loop = args.indexOf('-stream_loop');
    expect(args[loop + 1]).toBe('-1');
    expect(loop).toBeGreaterThan(args.indexOf('file:/media/top clip.mp4'));
    expect(loop).toBeLessThan(args.indexOf('file:/media/bottom.mov'));
    expect(branch(args, 'top').startsWith('[0:v]')).toBe(true);
    expect(branch(args, 'bottom').startsWith('[1:v]')).toBe(true);
  });

  it.each([
    ['bottom shorter than top', { durationSeconds: 12.5 }, { durationSeconds: 3 }, '12.500'],
    ['bottom longer than top', { durationSeconds: 4 }, { durationSeconds: 300 }, '4.000'],
    ['top longer than 600 s', { durationSeconds: 1800 }, { durationSeconds: 5 }, '600.000'],
  ])('lasts as long as the top (%s)', (_name, top, bottom, expected) => {
    const args = buildStoryRenderArgs(input(top, bottom));
    expect(valueAfter(args, '-t')).toBe(expected);
    // -t must be an output option (after the last input), or the looped bottom would never end.
    expect(args.indexOf('-t')).toBeGreaterThan(args.indexOf('/media/bottom.mov'));
  });

  it('makes non-square pixels square before covering (anamorphic input)', () => {
    const chain = halfFilterChain(
      { ...baseProbe, width: 720, height: 576, sampleAspectRatio: 16 / 11 },
      { zscale: true },
    );
    expect(chain.indexOf('scale=iw*sar:ih,setsar=1')).toBeLessThan(
      chain.indexOf('force_original_aspect_ratio=increase'),
    );
  });

  it('relies on ffmpeg autorotation for rotated inputs: no manual transpose, no -noautorotate', () => {
    const args = buildStoryRenderArgs(
      input({ rotation: 90, width: 1920, height: 1080, displayWidth: 1080, displayHeight: 1920 }),
    );
    expect(graphOf(args)).not.toContain('transpose');
    expect(args).not.toContain('-noautorotate');
  });

  it('converts odd-sized 4:4:4 and VFR inputs to 4:2:0 at a constant 30 fps', () => {
    const chain = halfFilterChain(
      { ...baseProbe, width: 721, height: 405, pixelFormat: 'yuv444p', fps: 23.4 },
      { zscale: true },
    );
    expect(chain.startsWith('fps=30,')).toBe(true);
    expect(chain.endsWith('format=yuv420p')).toBe(true);
  });

  it('converts 10-bit SDR to 8-bit without tone mapping', () => {
    const chain = halfFilterChain(
      { ...baseProbe, pixelFormat: 'yuv420p10le', bitDepth: 10, colorTransfer: 'bt709' },
      { zscale: true },
    );
    expect(chain).not.toContain('tonemap');
    expect(chain.endsWith('format=yuv420p')).toBe(true);
  });

  it.each(['smpte2084', 'arib-std-b67'])(
    'tone-maps HDR (%s) to BT.709 with zscale when the build has it',
    (transfer) => {
      const hdr = { pixelFormat: 'yuv420p10le', bitDepth: 10, colorTransfer: transfer };
      const withZscale = buildStoryRenderArgs(input(hdr), { zscale: true });
      expect(branch(withZscale, 'top')).toContain(`zscale=tin=${transfer}:`);
      expect(branch(withZscale, 'top')).toContain('tonemap=tonemap=hable');
      expect(branch(withZscale, 'bottom')).not.toContain('tonemap');

      const withoutZscale = buildStoryRenderArgs(input(hdr), { zscale: false });
      expect(graphOf(withoutZscale)).not.toContain('zscale');
      expect(branch(withoutZscale, 'top').endsWith('format=yuv420p[top]')).toBe(true);
    },
  );

  describe('audio', () => {
    it("uses the top's sound, padded to the story's length", () => {
      const args = buildStoryRenderArgs(input({}, {}, {}));
      expect(branch(args, 'aout')).toMatch(/^\[0:a\].*apad\[aout\]$/);
      expect(graphOf(args)).not.toContain('[1:a]');
    });

    it('adds silence when the top has no audio', () => {
      const args = buildStoryRenderArgs(input({ hasAudio: false, audioCodec: null }));
      expect(branch(args, 'aout')).toBe('anullsrc=channel_layout=stereo:sample_rate=48000[aout]');
      expect(args.filter((arg) => arg === '-map')).toHaveLength(2);
    });

    it("mixes the bottom's sound at 0.3 under the top's when asked", () => {
      const args = buildStoryRenderArgs(input({}, {}, { mixBottomAudio: true }));
      const graph = graphOf(args);
      expect(graph).toContain('[1:a]');
      expect(graph).toContain('volume=0.3');
      expect(graph).toContain('amix=inputs=2:duration=longest:normalize=0');
    });

    it("uses only the bottom's sound (quieter) when the top is silent and mixing is asked", () => {
      const args = buildStoryRenderArgs(
        input({ hasAudio: false, audioCodec: null }, {}, { mixBottomAudio: true }),
      );
      expect(branch(args, 'aout')).toMatch(/^\[1:a\].*volume=0\.3,apad\[aout\]$/);
    });

    it('ignores mixing when the bottom has no audio', () => {
      const args = buildStoryRenderArgs(
        input({}, { hasAudio: false, audioCodec: null }, { mixBottomAudio: true }),
      );
      expect(graphOf(args)).not.toContain('[1:a]');
    });
  });

  it('caps threads for both the encoder and the filter graph when asked', () => {
    expect(buildStoryRenderArgs(input())).not.toContain('-threads');
    const args = buildStoryRenderArgs(input({}, {}, { threads: 1 }));
    expect(valueAfter(args, '-threads')).toBe('1');
    expect(valueAfter(args, '-filter_complex_threads')).toBe('1');
  });
});

describe('storyDurationSeconds', () => {
  it("is the top's duration, capped at 600 s", () => {
    expect(storyDurationSeconds({ ...baseProbe, durationSeconds: 42.2 })).toBe(42.2);
    expect(storyDurationSeconds({ ...baseProbe, durationSeconds: 601 })).toBe(600);
  });
});

describe('buildStoryRenderArgs refusals', () => {
  it('refuses a top clip without a duration (it would make an empty story)', () => {
    expect(() => buildStoryRenderArgs(input({ durationSeconds: 0 }))).toThrow(RangeError);
  });
});
