import type { MemeAnalysis } from '@cadence/shared/schemas/meme';
import { describe, expect, it } from 'vitest';
import { analysisLabel } from './analysis-label.ts';

const youtube = (id: string, title: string | null) =>
  ({
    title,
    source: { type: 'youtube', url: `https://www.youtube.com/watch?v=${id}` },
  }) as unknown as MemeAnalysis;

describe('the line that names an analysis', () => {
  it('tells two links apart from their start, before their titles are known', () => {
    const first = analysisLabel(youtube('dQw4w9WgXcQ', null), 'Sans titre');
    const second = analysisLabel(youtube('9bZkp7q19f0', null), 'Sans titre');
    expect(first).toBe('youtube.com/watch?v=dQw4w9WgXcQ');
    // A narrow screen cuts the end: what it keeps must still differ.
    expect(first.slice(0, 24)).not.toBe(second.slice(0, 24));
    expect(analysisLabel(youtube('dQw4w9WgXcQ', 'Le clip'), 'Sans titre')).toBe('Le clip');
  });
});
