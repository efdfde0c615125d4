import { createHash, randomBytes, randomInt } from 'node:crypto';

/**
 * Random bytes handed out from a pool refilled RANDOM_POOL_BYTES at a time, as `randomUUID` does:
 * a `randomBytes` call costs the sandbox's one thread 6-12 µs whatever its size, and a video init
 * drew three (its ids and its log id), 8 % of the sandbox's time in a burst of inits.
 */
const RANDOM_POOL_BYTES = 4096;
let randomPool = Buffer.alloc(0);
let randomPoolOffset = 0;

/** `size` fresh random bytes, never handed out twice (a size beyond the pool gets its own draw). */
export function pooledRandomBytes(size: number): Buffer {
  if (randomPoolOffset + size > randomPool.length) {
    randomPool = randomBytes(Math.max(RANDOM_POOL_BYTES, size));
    randomPoolOffset = 0;
  }
  const bytes = randomPool.subarray(randomPoolOffset, randomPoolOffset + size);
  randomPoolOffset += size;
  return bytes;
}

export function sha256Hex(value: string | Buffer): string {
  return createHash('sha256').update(value).digest('hex');
}

/** What the ledger shows instead of a token: enough to tell tokens apart, useless to an attacker. */
export function tokenFingerprint(token: string): string {
  return sha256Hex(token).slice(0, 12);
}

/** TikTok-looking opaque token: `act.…` for access, `rft.…` for refresh. */
export function newToken(prefix: 'act' | 'rft'): string {
  return `${prefix}.${pooledRandomBytes(30).toString('base64url')}`;
}

/**
 * Codes contain `*` and `!` like TikTok's do, so a client that forgets to URL-decode the
 * callback's `code` (or double-encodes it) fails here rather than in production.
 */
export function newAuthorizationCode(): string {
  return `${pooledRandomBytes(36).toString('base64url')}*!${randomInt(1000, 10_000)}.va`;
}

export function newOpaqueId(): string {
  return pooledRandomBytes(16).toString('hex');
}

/** A 19-digit decimal id as TikTok's post ids are: beyond 2^53, so only ever handled as a string. */
export function newNineteenDigitId(): string {
  return `7${randomInt(10 ** 8, 10 ** 9)}${randomInt(10 ** 8, 10 ** 9)}`;
}

/** `YYYYMMDDHHmmss` + 20 hex digits, the shape of TikTok's log_id. */
export function newLogId(nowMs: number): string {
  return logIdStamp(nowMs) + pooledRandomBytes(10).toString('hex').toUpperCase();
}

/** The `YYYYMMDDHHmmss` of the second `nowMs` falls in, kept until the next second comes. */
let stampedSecond = Number.NaN;
let secondStamp = '';
function logIdStamp(nowMs: number): string {
  const second = Math.floor(nowMs / 1000);
  if (second !== stampedSecond) {
    stampedSecond = second;
    secondStamp = new Date(nowMs).toISOString().replace(/\D/g, '').slice(0, 14);
  }
  return secondStamp;
}

function uuidFromHash(hash: string): string {
  return `${hash.slice(0, 8)}-${hash.slice(8, 12)}-4${hash.slice(13, 16)}-a${hash.slice(17, 20)}-${hash.slice(20, 32)}`;
}

/** Stable per (app, username): reconnecting the same username yields the same TikTok user. */
export function openIdFor(clientKey: string, username: string): string {
  return uuidFromHash(sha256Hex(`open_id\u0000${clientKey}\u0000${username}`));
}

/** Stable per username across apps, as union_id is per developer. */
export function unionIdFor(username: string): string {
  return uuidFromHash(sha256Hex(`union_id\u0000${username}`));
}

/** `creator_4821` → `Creator 4821`. */
export function displayNameFor(username: string): string {
  return username
    .split(/[._]+/)
    .filter((part) => part.length > 0)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join(' ');
}

export function randomUsername(): string {
  return `creator_${randomInt(1000, 10_000)}`;
}
