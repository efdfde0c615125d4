import type { MemeAnalysis, MemeExtract } from '@cadence/shared/schemas/meme';
import { describe, expect, it } from 'vitest';
import { initialSelection, selectionSummary, toggleExtract } from './extract-selection.ts';
import { hasMemeSource, memeAnalysisRequest } from './meme-request.ts';

describe('meme request', () => {
  const base = { mode: 'youtube', url: '', mediaId: null, layout: 'crop' } as const;

  it('waits for a link or a finished upload', () => {
    expect(hasMemeSource({ ...base, url: '   ' })).toBe(false);
    expect(memeAnalysisRequest({ ...base, url: '   ' })).toBeNull();
    expect(hasMemeSource({ ...base, mode: 'file', url: 'https://youtu.be/x' })).toBe(false);
    expect(memeAnalysisRequest({ ...base, mode: 'file', mediaId: null })).toBeNull();
  });

  it('sends the trimmed YouTube link, and refuses a link the API would refuse', () => {
    expect(
      memeAnalysisRequest({ ...base, url: '  https://www.youtube.com/watch?v=dQw4w9WgXcQ ' }),
    ).toEqual({
      source: { type: 'youtube', url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' },
      layout: 'crop',
    });
    expect(memeAnalysisRequest({ ...base, url: 'https://vimeo.com/123' })).toBe('invalid-url');
  });

  it('sends the uploaded media with the chosen layout', () => {
    expect(memeAnalysisRequest({ ...base, mode: 'file', mediaId: 'm1', layout: 'blur' })).toEqual({
      source: { type: 'media', mediaId: 'm1' },
      layout: 'blur',
    });
  });
});

describe('extract selection', () => {
  const extract = (index: number, start: number, end: number, selected: boolean): MemeExtract => ({
    index,
    startSeconds: start,
    endSeconds: end,
    score: 0.5,
    highlight: true,
    thumbnailUrl: null,
    selected,
  });
  const analysis: MemeAnalysis = {
    id: 'a1',
    status: 'completed',
    progress: 1,
    source: { type: 'youtube', url: 'https://youtu.be/dQw4w9WgXcQ' },
    layout: 'crop',
    title: 'Clip',
    durationSeconds: 120,
    shorterThanTarget: false,
    extracts: [extract(0, 0, 10, true), extract(1, 20, 25, false), extract(2, 30, 45, true)],
    result: null,
    failReason: null,
    createdAt: '2030-01-01T00:00:00.000Z',
  };

  it("starts from the analysis's own selection, which is nothing to recompile", () => {
    const selection = initialSelection(analysis);
    expect([...selection].sort()).toEqual([0, 2]);
    expect(selectionSummary(analysis, selection, 'crop')).toEqual({
      selectedSeconds: 25,
      changed: false,
      selectedIndexes: [0, 2],
    });
  });

  it('a ticked or unticked extract, or another layout, is a change; ticking back is none', () => {
    const selection = initialSelection(analysis);
    const added = toggleExtract(selection, 1);
    expect(selection.has(1)).toBe(false); // never mutated
    expect(selectionSummary(analysis, added, 'crop')).toEqual({
      selectedSeconds: 30,
      changed: true,
      selectedIndexes: [0, 1, 2],
    });
    expect(selectionSummary(analysis, toggleExtract(added, 1), 'crop').changed).toBe(false);
    expect(selectionSummary(analysis, selection, 'blur').changed).toBe(true);
  });
});
