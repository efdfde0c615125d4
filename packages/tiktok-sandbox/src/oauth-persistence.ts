import {
  closeSync,
  fchmodSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { KNOWN_SCOPES } from './options.ts';

const timestamp = z.number().int().nonnegative();

const persistedUserSchema = z.object({
  openId: z.string(),
  unionId: z.string(),
  username: z.string(),
  displayName: z.string(),
  clientKey: z.string(),
  createdAt: timestamp,
});

const persistedGrantSchema = z.object({
  id: z.number().int().positive(),
  clientKey: z.string(),
  openId: z.string(),
  scopes: z.array(z.enum(KNOWN_SCOPES)),
  revokedAt: timestamp.nullable(),
});

const persistedTokenSchema = z.object({
  kind: z.enum(['access', 'refresh']),
  token: z.string().min(1),
  grantId: z.number().int().positive(),
  issuedAt: timestamp,
  expiresAt: timestamp,
  revokedAt: timestamp.nullable(),
  rotatedAt: timestamp.nullable(),
});

/**
 * What survives a restart: users, consents (grants) and tokens. Authorization codes live ten
 * minutes and posts hold upload streams, so both stay in memory.
 */
export const persistedOAuthSchema = z.object({
  version: z.literal(1),
  users: z.array(persistedUserSchema),
  grants: z.array(persistedGrantSchema),
  tokens: z.array(persistedTokenSchema),
});
export type PersistedOAuth = z.infer<typeof persistedOAuthSchema>;

/** How persistence problems are reported; never thrown, a sandbox file must not stop the server. */
export type PersistenceWarn = (message: string) => void;

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The saved records, or null when the file is missing or unusable (reported through `warn`). */
export function readPersistedOAuth(file: string, warn: PersistenceWarn): PersistedOAuth | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return null;
    warn(`cannot read ${file}, starting with no accounts: ${errorMessage(error)}`);
    return null;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    warn(`${file} is not valid JSON, starting with no accounts: ${errorMessage(error)}`);
    return null;
  }
  const parsed = persistedOAuthSchema.safeParse(json);
  if (!parsed.success) {
    warn(`${file} has an unexpected shape, starting with no accounts: ${parsed.error.message}`);
    return null;
  }
  return parsed.data;
}

/**
 * Writes `<file>.tmp` (mode 0600: it holds live sandbox tokens), syncs it, then renames it over
 * `file`, so a crash mid-write leaves the previous version rather than half a JSON document.
 */
export function writeFileAtomicSync(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.tmp`;
  const fd = openSync(temporary, 'w', 0o600);
  try {
    // A stale .tmp left by a crash keeps its old mode; open's mode only applies on creation.
    fchmodSync(fd, 0o600);
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, file);
}

export interface PersistScheduler {
  /** Records that something changed; the save runs at most `delayMs` later. */
  schedule(): void;
  /** Saves now if anything changed since the last save, and cancels the pending timer. */
  flush(): void;
}

/**
 * Coalesces bursts of changes (a token exchange touches a user, a grant and two tokens) into one
 * write. The timer is unref'd so it never keeps a process alive; `flush()` clears it.
 */
export function createPersistScheduler(input: {
  delayMs: number;
  save: () => void;
  warn: PersistenceWarn;
}): PersistScheduler {
  let timer: NodeJS.Timeout | null = null;
  let dirty = false;
  // One message per run of failures, not one per change, if the disk stays unwritable.
  let failing = false;

  const flush = (): void => {
    if (timer !== null) {
      clearTimeout(timer);
      timer = null;
    }
    if (!dirty) return;
    dirty = false;
    try {
      input.save();
      failing = false;
    } catch (error) {
      dirty = true;
      if (!failing) input.warn(`cannot save sandbox accounts: ${errorMessage(error)}`);
      failing = true;
    }
  };

  return {
    schedule() {
      dirty = true;
      // Deliberately not reset on each change: a steady stream of changes still gets saved.
      if (timer !== null) return;
      timer = setTimeout(flush, input.delayMs);
      timer.unref();
    },
    flush,
  };
}
