import { describe, expect, it } from 'vitest';
import { isYouTubeUrl } from '../youtube-url.ts';
import { createMemeAnalysisSchema, recompileMemeSchema } from './meme.ts';

describe('createMemeAnalysisSchema', () => {
  it('accepts YouTube links as their canonical watch URL, and uploaded videos; crop by default', () => {
    expect(
      createMemeAnalysisSchema.parse({
        source: { type: 'youtube', url: '  https://youtu.be/abcDEF12345?si=x  ' },
      }),
    ).toEqual({
      source: { type: 'youtube', url: 'https://www.youtube.com/watch?v=abcDEF12345' },
      layout: 'crop',
    });
    expect(
      createMemeAnalysisSchema.parse({ source: { type: 'media', mediaId: 'm1' }, layout: 'blur' }),
    ).toEqual({ source: { type: 'media', mediaId: 'm1' }, layout: 'blur' });
  });

  it("refuses other links with the form's message key, the same for every host", () => {
    for (const url of [
      'https://vimeo.com/1',
      'youtube.com',
      '',
      '   ',
      'x'.repeat(2001) + 'youtu.be/',
      'http://127.0.0.1:8080/youtu.be/x',
      'http://localhost:5432/?youtube.com/',
      'https://youtube.com@127.0.0.1/watch?v=abcDEF12345',
      'https://youtube.com.evil.com/watch?v=abcDEF12345',
      42,
      null,
    ]) {
      const result = createMemeAnalysisSchema.safeParse({ source: { type: 'youtube', url } });
      expect(result.success).toBe(false);
      expect(result.error?.issues).toHaveLength(1);
      expect(result.error?.issues[0]).toMatchObject({
        path: ['source', 'url'],
        message: 'memes.errors.invalidUrl',
      });
    }
  });

  it('shares the link rule with the web form', () => {
    for (const url of [
      'https://www.youtube.com/watch?v=abcDEF12345',
      'https://youtu.be/x',
      'http://127.0.0.1/youtu.be/abcDEF12345',
    ]) {
      const accepted = createMemeAnalysisSchema.safeParse({
        source: { type: 'youtube', url },
      }).success;
      expect(accepted).toBe(isYouTubeUrl(url));
    }
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
