import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pairStories } from './pair-stories.ts';

describe('pairStories', () => {
  it('makes one story per top video, cycling through the bottom videos', () => {
    expect(pairStories(['t1', 't2', 't3', 't4', 't5'], ['b1', 'b2'])).toEqual([
      { top: 't1', bottom: 'b1' },
      { top: 't2', bottom: 'b2' },
      { top: 't3', bottom: 'b1' },
      { top: 't4', bottom: 'b2' },
      { top: 't5', bottom: 'b1' },
    ]);
  });

  it('uses the first bottoms only when there are more bottoms than tops', () => {
    expect(pairStories(['t1'], ['b1', 'b2', 'b3'])).toEqual([{ top: 't1', bottom: 'b1' }]);
  });

  it('returns nothing when either list is empty', () => {
    expect(pairStories([], ['b1'])).toEqual([]);
    expect(pairStories(['t1'], [])).toEqual([]);
  });

  it('keeps top order and gives the k-th top the (k mod n)-th bottom (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer(), { maxLength: 50 }),
        fc.array(fc.string(), { minLength: 1, maxLength: 10 }),
        (tops, bottoms) => {
          const pairs = pairStories(tops, bottoms);
          expect(pairs.map((pair) => pair.top)).toEqual(tops);
          pairs.forEach((pair, index) => expect(pair.bottom).toBe(bottoms[index % bottoms.length]));
        },
      ),
    );
  });
});
