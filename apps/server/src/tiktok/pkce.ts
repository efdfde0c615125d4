import { createHash, randomBytes } from 'node:crypto';

export interface PkcePair {
  /** Keep server-side with the OAuth state; sent only to the token endpoint. */
  codeVerifier: string;
  /** Sent in the authorize URL. */
  codeChallenge: string;
}

/**
 * A PKCE pair the way TikTok wants it: a 64-character verifier from the RFC 7636 unreserved
 * alphabet, and a challenge that is the HEX SHA-256 of it (TikTok's deviation from base64url).
 */
export function createPkcePair(): PkcePair {
  // 48 random bytes in base64url are 64 characters of [A-Za-z0-9_-], all unreserved.
  const codeVerifier = randomBytes(48).toString('base64url');
  return { codeVerifier, codeChallenge: pkceChallengeFor(codeVerifier) };
}

export function pkceChallengeFor(codeVerifier: string): string {
  return createHash('sha256').update(codeVerifier).digest('hex');
}
