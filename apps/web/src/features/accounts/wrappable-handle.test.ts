import { describe, expect, it } from 'vitest';
import { wrappableHandle } from './wrappable-handle.ts';

describe('wrappableHandle', () => {
  it('leaves short names exactly as typed', () => {
    expect(wrappableHandle('maya_creates')).toBe('maya_creates');
  });

  it('gives a long name a break at least every 16 characters, without changing what it reads', () => {
    const long = 'a_really_long_creator_name_that_goes_on_and_on_and_on';
    const separatorless = 'x'.repeat(64);
    for (const name of [long, separatorless]) {
      const wrapped = wrappableHandle(name);
      expect(wrapped.replaceAll('\u200B', '')).toBe(name);
      for (const run of wrapped.split('\u200B')) expect(run.length).toBeLessThanOrEqual(16);
    }
    expect(wrappableHandle(long)).toContain('a_\u200Breally_\u200B');
  });
});
