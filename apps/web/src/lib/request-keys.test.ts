import { describe, expect, it } from 'vitest';
import { createRequestKeys } from './request-keys.ts';

// The server's rule (apps/server/src/lib/idempotency.ts): 16–128 of [A-Za-z0-9_-].
const serverPattern = /^[A-Za-z0-9_-]{16,128}$/;

describe('request keys of a form', () => {
  it('gives the same body sent again the same key, and another body a new one', () => {
    const keys = createRequestKeys();
    const first = keys.keyFor({ accountId: 'a', mediaIds: ['m1'], time: '10:00' });
    expect(first).toMatch(serverPattern);
    expect(keys.keyFor({ accountId: 'a', mediaIds: ['m1'], time: '10:00' })).toBe(first);
    const edited = keys.keyFor({ accountId: 'a', mediaIds: ['m1'], time: '11:00' });
    expect(edited).not.toBe(first);
    expect(edited).toMatch(serverPattern);
  });

  it('gives the same content a new key once it was made (a deliberate second schedule)', () => {
    const keys = createRequestKeys();
    const body = { accountId: 'a', mediaIds: ['m1'] };
    const first = keys.keyFor(body);
    keys.reset();
    expect(keys.keyFor(body)).not.toBe(first);
  });

  it('keeps forms apart', () => {
    const body = { accountId: 'a' };
    expect(createRequestKeys().keyFor(body)).not.toBe(createRequestKeys().keyFor(body));
  });
});
