import { describe, expect, it } from 'vitest';
import { isYouTubeUrl } from '../youtube-url.ts';
import { createMemeAnalysisSchema, recompileMemeSchema } from './meme.ts';

describe('createMemeAnalysisSchema', () => {
  it('accepts YouTube links (trimmed) and uploaded videos, crop by default', () => {
    expect(
      createMemeAnalysisSchema.parse({
        source: { type: 'youtube', url: '  https://youtu.be/abc  ' },
      }),
    ).toEqual({ source: { type: 'youtube', url: 'https://youtu.be/abc' }, layout: 'crop' });
    expect(
      createMemeAnalysisSchema.parse({ source: { type: 'media', mediaId: 'm1' }, layout: 'blur' }),
    ).toEqual({ source: { type: 'media', mediaId: 'm1' }, layout: 'blur' });
  });

  it("refuses other links with the form's message key", () => {
    for (const url of ['https://vimeo.com/1', 'youtube.com', '', 'x'.repeat(2001) + 'youtu.be/']) {
      const result = createMemeAnalysisSchema.safeParse({ source: { type: 'youtube', url } });
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]).toMatchObject({
        path: ['source', 'url'],
        message: 'memes.errors.invalidUrl',
      });
    }
  });

  it('shares the link rule with the web form', () => {
    expect(isYouTubeUrl('https://www.youtube.com/watch?v=x')).toBe(true);
    expect(isYouTubeUrl('https://youtu.be/x')).toBe(true);
    expect(isYouTubeUrl('https://youtu.be')).toBe(false);
  });
});

describe('recompileMemeSchema', () => {
  it('needs at least one extract and a layout', () => {
    expect(
      recompileMemeSchema.safeParse({ selectedIndexes: [], layout: 'crop' }).error?.issues[0],
    ).toMatchObject({ message: 'memes.errors.selectExtract' });
    expect(recompileMemeSchema.safeParse({ selectedIndexes: [0, 2] }).success).toBe(false);
    expect(recompileMemeSchema.parse({ selectedIndexes: [0, 2], layout: 'blur' })).toEqual({
      selectedIndexes: [0, 2],
      layout: 'blur',
    });
  });
});
