import { describe, expect, it } from 'vitest';
import { isTranslationKey, type TranslationKey } from './translation-key.ts';

// The assertions here are checked by `tsc` (npm run check): a key French has type-checks, one it
// lacks does not (the @ts-expect-error line fails the build the day it would be accepted).
describe('TranslationKey', () => {
  it('accepts the keys of the French locale, plural keys by their base, and nothing else', () => {
    const known: TranslationKey[] = [
      'accounts.errors.reconnectNeeded',
      'errors.internal',
      'media.rejected.quota_exceeded',
    ];
    // @ts-expect-error — not a key of fr/*.json
    const unknown: TranslationKey = 'accounts.errors.noSuchKey';
    expect([...known, unknown]).toHaveLength(4);
  });

  it('knows at runtime the same keys, for keys that arrive as data (zod messages, library codes)', () => {
    expect(isTranslationKey('errors.invalid_value')).toBe(true);
    expect(isTranslationKey('accounts.errors.reconnectNeeded')).toBe(true);
    // a plural key by its base, as `t()` is called with it
    expect(isTranslationKey('memes.extracts.selectedCount')).toBe(true);
    expect(isTranslationKey('memes.extracts.selectedCount_one')).toBe(false);
    expect(isTranslationKey('accounts.errors.noSuchKey')).toBe(false);
    expect(isTranslationKey('accounts.errors')).toBe(false);
    expect(isTranslationKey('Required')).toBe(false);
  });
});
