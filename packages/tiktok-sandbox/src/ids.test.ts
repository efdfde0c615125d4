import { describe, expect, it } from 'vitest';
import { newLogId, newOpaqueId, newToken, pooledRandomBytes } from './ids.ts';

describe('sandbox ids', () => {
  it('hands out random bytes from its pool once only, across refills', () => {
    // 16 bytes each: 1,000 ids span four refills of the 4 KiB pool.
    const ids = Array.from({ length: 1_000 }, () => newOpaqueId());
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.every((id) => /^[0-9a-f]{32}$/.test(id))).toBe(true);
    const tokens = Array.from({ length: 300 }, () => newToken('act'));
    expect(new Set(tokens).size).toBe(tokens.length);
    expect(tokens.every((token) => /^act\.[\w-]{40}$/.test(token))).toBe(true);
  });

  it('gives a size larger than its pool whole', () => {
    expect(pooledRandomBytes(10_000)).toHaveLength(10_000);
    expect(pooledRandomBytes(3)).toHaveLength(3);
  });

  it("writes a log id as TikTok's: the second it was made, then 20 hex digits", () => {
    const lastOfMinute = Date.UTC(2026, 11, 6, 21, 5, 59, 999);
    const first = newLogId(lastOfMinute);
    const second = newLogId(lastOfMinute);
    expect(first).toMatch(/^20261206210559[0-9A-F]{20}$/);
    expect(second.slice(0, 14)).toBe('20261206210559');
    expect(second).not.toBe(first);
    expect(newLogId(lastOfMinute + 1)).toMatch(/^20261206210600[0-9A-F]{20}$/);
    // An earlier second after a later one: its own stamp, not the one kept.
    expect(newLogId(lastOfMinute - 60_000)).toMatch(/^20261206210459/);
  });
});
