import { describe, expect, it } from 'vitest';
import { formatTimestamp } from './format-time.ts';

describe('formatTimestamp', () => {
  it('shows positions the way video players do', () => {
    expect(formatTimestamp(0)).toBe('0:00');
    expect(formatTimestamp(13.5)).toBe('0:13');
    expect(formatTimestamp(72.99)).toBe('1:12');
    expect(formatTimestamp(3 * 3600 + 5 * 60 + 7)).toBe('3:05:07');
    expect(formatTimestamp(-1)).toBe('0:00');
  });
});
