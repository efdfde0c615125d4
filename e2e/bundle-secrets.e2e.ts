import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { repoRoot, startServer, type RunningServer } from './support/server.ts';

// The original product shipped its TikTok client secret in the browser bundle (spec §7). These
// tests pin that no secret reaches the browser: not through the build, not through what the
// running server hands out.

const webRoot = path.join(repoRoot, 'apps/web');
const builtDir = path.join(webRoot, 'dist');

// Started at once, while the bundle is found or built: the two halves share the file's time.
let server: RunningServer | undefined;
const serverStarting = startServer().then((started) => (server = started));
// A failed start is reported by the test that awaits it, not as an unhandled rejection.
serverStarting.catch(() => undefined);
afterAll(async () => {
  await serverStarting.catch(() => undefined);
  await server?.stop();
});

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}

/**
 * The build `npm test` made with made-up secrets in its environment (scripts/test.mjs records
 * them beside the digest of the index.html it built), when apps/web/dist is still that build.
 */
function canaryBuild(): { dir: string; canaries: Record<string, string> } | undefined {
  const record = path.join(repoRoot, '.tmp/build-canaries.json');
  const index = path.join(builtDir, 'index.html');
  if (!existsSync(record) || !existsSync(index)) return undefined;
  const { indexDigest, canaries } = z
    .object({ indexDigest: z.string(), canaries: z.record(z.string(), z.string().min(16)) })
    .parse(JSON.parse(readFileSync(record, 'utf8')));
  const digest = createHash('sha256').update(readFileSync(index)).digest('hex');
  return digest === indexDigest ? { dir: builtDir, canaries } : undefined;
}

/** Otherwise (a build made another way), a build of its own with made-up secrets. */
async function buildWithCanaries(): Promise<{ dir: string; canaries: Record<string, string> }> {
  const canaries = {
    TIKTOK_CLIENT_SECRET: `tiktok-secret-${randomBytes(12).toString('hex')}`,
    SESSION_SECRET: `session-secret-${randomBytes(12).toString('hex')}`,
  };
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cadence-bundle-'));
  // The production config as `npm run build` uses it (apps/web/vite.config.ts), into `dir`.
  await promisify(execFile)(
    'npx',
    ['vite', 'build', '--outDir', dir, '--emptyOutDir', '--logLevel', 'error'],
    { cwd: webRoot, env: { ...process.env, ...canaries } },
  );
  return { dir, canaries };
}

describe('the browser bundle', () => {
  let scanned: { dir: string; canaries: Record<string, string> };
  let ownBuild = false;

  beforeAll(async () => {
    const made = canaryBuild();
    ownBuild = made === undefined;
    scanned = made ?? (await buildWithCanaries());
  }, 180_000);
  afterAll(() => {
    if (ownBuild) rmSync(scanned.dir, { recursive: true, force: true });
  });

  it('holds no secret from the build environment, and no client secret at all', () => {
    // Compressed copies (.br, .gz) are the very files below, as bytes a canary cannot be read in.
    const files = filesUnder(scanned.dir).filter((file) => !/\.(br|gz)$/.test(file));
    // The build really happened: an index and scripts (with their source maps, also served).
    expect(files.some((file) => file.endsWith('index.html'))).toBe(true);
    expect(files.some((file) => file.endsWith('.js'))).toBe(true);
    expect(Object.keys(scanned.canaries)).toEqual(
      expect.arrayContaining(['TIKTOK_CLIENT_SECRET', 'SESSION_SECRET']),
    );
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      const name = path.relative(scanned.dir, file);
      for (const canary of Object.values(scanned.canaries))
        expect(text, name).not.toContain(canary);
      expect(text, name).not.toContain('client_secret');
      expect(text, name).not.toContain('sandbox_client_secret');
    }
  });
});

describe('the running server', () => {
  it('serves no generated secret in the page, its scripts or the public config', async () => {
    const running = await serverStarting;
    // Generated at first start into DATA_DIR, so it cannot be in a prebuilt bundle — but it must
    // not leak through what the server serves either.
    const secrets = z
      .object({ sandboxClientSecret: z.string().min(16) })
      .catchall(z.unknown())
      .parse(JSON.parse(readFileSync(path.join(running.dataDir, 'secrets.json'), 'utf8')));
    const secretValues = Object.values(secrets).filter(
      (value): value is string => typeof value === 'string' && value.length >= 16,
    );
    expect(secretValues).toContain(secrets.sandboxClientSecret);

    const fetchText = async (pathname: string) => {
      const response = await fetch(new URL(pathname, running.url));
      expect(response.status, pathname).toBe(200);
      return response.text();
    };
    const html = await fetchText('/');
    const entries = [...html.matchAll(/src="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]!);
    expect(
      entries.length,
      'index.html references its scripts (run `npm run build`)',
    ).toBeGreaterThan(0);
    const served = [
      { name: '/', text: html },
      { name: '/api/public-config', text: await fetchText('/api/public-config') },
    ];
    // Follow the chunks the entry imports (statically or lazily) and every script's source map.
    const queue = [...entries];
    const seen = new Set(queue);
    for (let script = queue.shift(); script !== undefined; script = queue.shift()) {
      const text = await fetchText(script);
      served.push({ name: script, text });
      for (const [, chunk] of text.matchAll(/["'/]([\w-]+-[\w-]{8}\.js)["']/g)) {
        const chunkPath = `/assets/${chunk!}`;
        if (!seen.has(chunkPath)) {
          seen.add(chunkPath);
          queue.push(chunkPath);
        }
      }
      const map = /\/\/# sourceMappingURL=(\S+)/.exec(text)?.[1];
      if (map) {
        const mapPath = new URL(map, new URL(script, running.url)).pathname;
        served.push({ name: mapPath, text: await fetchText(mapPath) });
      }
    }
    const builtScripts = readdirSync(path.join(builtDir, 'assets')).filter((name) =>
      name.endsWith('.js'),
    );
    expect([...seen].map((script) => path.basename(script)).sort()).toEqual(builtScripts.sort());
    for (const { name, text } of served) {
      for (const secret of secretValues) expect(text, name).not.toContain(secret);
      expect(text, name).not.toContain('client_secret');
    }
  }, 90_000);
});
