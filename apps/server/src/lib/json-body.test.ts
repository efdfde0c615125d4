import { describe, expect, it } from 'vitest';
import { jsonNestingExceeds } from './json-body.ts';

describe('jsonNestingExceeds', () => {
  it('counts arrays and objects opened inside one another', () => {
    expect(jsonNestingExceeds('[[[]]]', 3)).toBe(false);
    expect(jsonNestingExceeds('[[[[]]]]', 3)).toBe(true);
    expect(jsonNestingExceeds('{"a":{"b":[1,{"c":2}]}}', 3)).toBe(true);
    // Siblings are not nesting.
    expect(jsonNestingExceeds('[[],[],[],[],[]]', 2)).toBe(false);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(jsonNestingExceeds(JSON.stringify({ name: '[[[[[[{{{{' }), 1)).toBe(false);
    expect(jsonNestingExceeds(JSON.stringify({ name: 'say \\"[[[[' }), 1)).toBe(false);
    expect(jsonNestingExceeds(JSON.stringify(['\\', [[[]]]]), 3)).toBe(true);
  });
});
