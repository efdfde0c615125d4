import type { MemeAnalysis, MemeLayout } from '@cadence/shared/schemas/meme';

/** The extracts ticked in the result, by index; starts as the analysis's own selection. */
export type ExtractSelection = ReadonlySet<number>;

export function initialSelection(analysis: MemeAnalysis): ExtractSelection {
  return new Set(analysis.extracts.filter((extract) => extract.selected).map((e) => e.index));
}

export function toggleExtract(selection: ExtractSelection, index: number): ExtractSelection {
  const next = new Set(selection);
  if (next.has(index)) next.delete(index);
  else next.add(index);
  return next;
}

/**
 * What the recompile bar shows and sends: the ticked extracts' total length, and whether the
 * choice differs from the current compilation (the only case worth recompiling).
 */
export function selectionSummary(
  analysis: MemeAnalysis,
  selection: ExtractSelection,
  layout: MemeLayout,
) {
  const selectedSeconds = analysis.extracts
    .filter((extract) => selection.has(extract.index))
    .reduce((sum, extract) => sum + extract.endSeconds - extract.startSeconds, 0);
  const changed =
    layout !== analysis.layout ||
    analysis.extracts.some((extract) => extract.selected !== selection.has(extract.index));
  return {
    selectedSeconds,
    changed,
    selectedIndexes: [...selection].sort((a, b) => a - b),
  };
}
