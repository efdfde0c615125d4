import { describe, expect, it } from 'vitest';
import { formatCivilDate, formatDateTime } from './format.ts';

describe('dates in words', () => {
  it("heads the queue's days with '1er' on the first of a month in French", () => {
    expect(formatCivilDate('2026-11-01', 'fr', false)).toBe('dimanche 1er novembre');
    expect(formatCivilDate('2026-11-01', 'fr', true)).toBe('dimanche 1er novembre 2026');
    expect(formatCivilDate('2026-11-21', 'fr', false)).toBe('samedi 21 novembre');
    expect(formatCivilDate('2026-11-01', 'en', false)).toBe('Sunday 1 November');
  });

  it("writes '1er' in a post's full date and time (its title tooltip, notifications)", () => {
    const firstOfDecember = '2026-12-01T17:30:00Z';
    expect(formatDateTime(firstOfDecember, 'fr', 'Europe/Paris')).toBe('1er déc. 2026, 18:30');
    expect(formatDateTime(firstOfDecember, 'en', 'Europe/Paris')).toBe('1 Dec 2026, 18:30');
  });
});
