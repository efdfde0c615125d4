import type { MemeAnalysis } from '@cadence/shared/schemas/meme';

/**
 * What names an analysis in a line: the video's title once known, else its link without
 * 'https://www.' (cut at the end on a narrow screen, the full link showed only the part every
 * entry shares, 'https://www.youtube.com/…'), else `untitled` (an uploaded file).
 */
export function analysisLabel(analysis: MemeAnalysis, untitled: string): string {
  if (analysis.title) return analysis.title;
  return analysis.source.type === 'youtube'
    ? analysis.source.url.replace(/^https?:\/\/(www\.)?/, '')
    : untitled;
}
