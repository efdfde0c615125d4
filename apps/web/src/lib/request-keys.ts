/**
 * Idempotency-Keys for a form's submissions: the same body sent again (a second click, a retry
 * after a network error whose request may have arrived) carries the same key, so the server makes
 * it once and answers what it made; another body gets a new key. After a success, `reset()`: the
 * same content again is then a new, deliberate request.
 */
export interface RequestKeys {
  keyFor(body: unknown): string;
  reset(): void;
}

export function createRequestKeys(): RequestKeys {
  let last: { body: string; key: string } | null = null;
  return {
    keyFor(body) {
      const json = JSON.stringify(body);
      if (last?.body !== json) last = { body: json, key: randomKey() };
      return last.key;
    },
    reset() {
      last = null;
    },
  };
}

/**
 * 32 hexadecimal characters from the browser's random source (crypto.randomUUID is only offered
 * on https and localhost; a self-hosted Cadence may be reached over plain http).
 */
function randomKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) =>
    byte.toString(16).padStart(2, '0'),
  ).join('');
}
