import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startServer, type RunningServer } from '../../../e2e/support/server.ts';

// The original product shipped its TikTok client secret in the browser bundle (spec §7). These
// tests pin that no secret reaches the browser: not through the build, not through what the
// running server hands out.

const webRoot = path.resolve(import.meta.dirname, '..');
/** vite-plugin-compression2's name for itself (vite.config.ts). */
const compressionPlugin = 'vite-plugin-compression';

// Started at once, while the bundle builds: the two halves share the file's time budget.
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

describe('the browser bundle', () => {
  const markers = {
    TIKTOK_CLIENT_SECRET: `tiktok-secret-${randomBytes(12).toString('hex')}`,
    SESSION_SECRET: `session-secret-${randomBytes(12).toString('hex')}`,
  };
  let outDir: string;
  const saved: Record<string, string | undefined> = {};

  beforeAll(async () => {
    outDir = mkdtempSync(path.join(os.tmpdir(), 'cadence-bundle-'));
    for (const [name, value] of Object.entries(markers)) {
      saved[name] = process.env[name];
      process.env[name] = value;
    }
    try {
      // The production config as `npm run build` uses it, less the Brotli and gzip copies: they
      // are compressed bytes, where a marker cannot be read as text, made from the very scripts
      // and pages checked below (a quarter of the build's time, at Brotli's best setting).
      const { default: config } = await import('../vite.config.ts');
      await build({
        ...config,
        configFile: false,
        root: webRoot,
        logLevel: 'silent',
        plugins: config.plugins
          ?.flat()
          .filter((plugin) => !(plugin && 'name' in plugin && plugin.name === compressionPlugin)),
        build: { ...config.build, outDir, emptyOutDir: true },
      });
    } finally {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  }, 120_000);
  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  it('holds no secret from the build environment, and no client secret at all', () => {
    const files = filesUnder(outDir);
    // The build really happened: an index and scripts (with their source maps, also served).
    expect(files.some((file) => file.endsWith('index.html'))).toBe(true);
    expect(files.some((file) => file.endsWith('.js'))).toBe(true);
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      const name = path.relative(outDir, file);
      for (const marker of Object.values(markers)) expect(text, name).not.toContain(marker);
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
    const builtScripts = readdirSync(path.join(webRoot, 'dist', 'assets')).filter((name) =>
      name.endsWith('.js'),
    );
    expect([...seen].map((script) => path.basename(script)).sort()).toEqual(builtScripts.sort());
    for (const { name, text } of served) {
      for (const secret of secretValues) expect(text, name).not.toContain(secret);
      expect(text, name).not.toContain('client_secret');
    }
  }, 90_000);
});
