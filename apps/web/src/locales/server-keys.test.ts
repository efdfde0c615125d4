import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The server answers errors with translation keys (`fields: { accountId: 'accounts.errors.…' }`,
// failure keys of renders and analyses); the web shows the key's text when it has one and a
// generic sentence otherwise. A key missing here is a message nobody ever reads.

const repoRoot = path.resolve(import.meta.dirname, '../../../..');
const serverSources = ['apps/server/src', 'packages/shared/src'];

type Tree = { [key: string]: string | Tree };

function keysOf(tree: Tree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) => {
    const full = prefix ? `${prefix}.${key}` : key;
    return typeof value === 'string' ? [full] : keysOf(value, full);
  });
}

function loadKeys(language: 'fr' | 'en'): Set<string> {
  const dir = path.join(import.meta.dirname, language);
  return new Set(
    readdirSync(dir)
      .filter((name) => name.endsWith('.json'))
      .flatMap((name) => keysOf(JSON.parse(readFileSync(path.join(dir, name), 'utf8')) as Tree)),
  );
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return name.endsWith('.ts') && !name.includes('.test.') ? [full] : [];
  });
}

/** String literals shaped like the keys the server sends: `errors.x`, `<area>.errors.x`, `<area>.failures.x`. */
function keysSentByServer(): Set<string> {
  const keys = new Set<string>();
  for (const dir of serverSources) {
    for (const file of sourceFiles(path.join(repoRoot, dir))) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(/'((?:[a-z]+\.)?(?:errors|failures)\.[a-zA-Z_]+)'/g))
        keys.add(match[1]!);
    }
  }
  return keys;
}

describe('translations of server error keys', () => {
  it('has a French and an English text for every key the server can send', () => {
    const sent = keysSentByServer();
    expect(sent).toContain('accounts.errors.reconnectNeeded');
    expect(sent.size).toBeGreaterThan(30);
    for (const language of ['fr', 'en'] as const) {
      const known = loadKeys(language);
      const missing = [...sent].filter((key) => !known.has(key) && !known.has(`${key}_other`));
      expect(missing, language).toEqual([]);
    }
  });
});
