export interface StoryPair<TTopId, TBottomId> {
  top: TTopId;
  bottom: TBottomId;
}

/**
 * One story per top video, in order; bottom videos are used in turn and start over when there are
 * fewer of them than top videos. Empty when either list is empty.
 */
export function pairStories<TTopId, TBottomId>(
  topIds: readonly TTopId[],
  bottomIds: readonly TBottomId[],
): StoryPair<TTopId, TBottomId>[] {
  if (bottomIds.length === 0) return [];
  return topIds.map((top, index) => {
    // The modulo keeps the index in range; the check only satisfies noUncheckedIndexedAccess.
    const bottom = bottomIds[index % bottomIds.length];
    if (bottom === undefined) throw new Error('unreachable: bottom index out of range');
    return { top, bottom };
  });
}
