import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { registerSpa } from './app.ts';
import { createTestApp, signUpViaApi } from './test-support/app.ts';

// What the public HTTP port must not hand out, whoever asks.

describe('the built web app', () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'cadence-web-dist-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  mkdirSync(path.join(root, 'assets'));
  writeFileSync(path.join(root, 'index.html'), '<!doctype html><title>Cadence</title>');
  writeFileSync(path.join(root, 'assets/index-abc123.js'), 'console.log("cadence");\n');
  writeFileSync(
    path.join(root, 'assets/index-abc123.js.map'),
    '{"version":3,"sources":["../../src/main.tsx"],"sourcesContent":["secret source"]}',
  );
  // The build's module manifest (read by the route budgets at build time) names every source file.
  mkdirSync(path.join(root, '.vite'));
  writeFileSync(
    path.join(root, '.vite/manifest.json'),
    '{"src/main.tsx":{"file":"assets/index-abc123.js","src":"secret source"}}',
  );

  const serve = async () => {
    const app = Fastify();
    await registerSpa(app, root);
    return app;
  };

  it('serves the bundles and the SPA, but never a source map or the build manifest', async () => {
    const app = await serve();
    try {
      const bundle = await app.inject({ url: '/assets/index-abc123.js' });
      expect(bundle.statusCode).toBe(200);
      expect((await app.inject({ url: '/scheduler' })).body).toContain('<title>Cadence</title>');

      for (const url of [
        '/assets/index-abc123.js.map',
        '/assets/index-abc123.js.map?v=1',
        '/assets/index-abc123.js.m%61p',
        '/assets/../assets/index-abc123.js.map',
        '/.vite/manifest.json',
        '/.vite/../.vite/manifest.json',
        '/%2Evite/manifest.json',
      ]) {
        const map = await app.inject({ url });
        expect(map.statusCode, url).toBe(404);
        expect(map.body, url).not.toContain('secret source');
        expect(map.body, url).not.toContain('<title>Cadence</title>');
      }
    } finally {
      await app.close();
    }
  });

  it('answers a missing asset with 404, not with index.html', async () => {
    const app = await serve();
    try {
      const missing = await app.inject({ url: '/assets/index-gone.js' });
      expect(missing.statusCode).toBe(404);
      expect(missing.body).not.toContain('<title>Cadence</title>');
    } finally {
      await app.close();
    }
  });
});

describe('the TikTok sandbox in sandbox mode', () => {
  // The ledger lists every user's sandbox posts and accounts; fault control changes TikTok's answers.
  it.each(['production', 'development'] as const)(
    'keeps its ledger and fault control to tests (NODE_ENV=%s: 404)',
    async (nodeEnv) => {
      const t = await createTestApp({ NODE_ENV: nodeEnv });
      try {
        expect((await t.app.inject({ url: '/sandbox/tiktok/_ledger' })).statusCode).toBe(404);
        const fault = await t.app.inject({
          method: 'POST',
          url: '/sandbox/tiktok/_control/faults',
          headers: { origin: t.url },
          payload: { action: 'latency', ms: 10 },
        });
        expect(fault.statusCode).toBe(404);
        expect(t.context.sandbox?.control.latencyMs).toBe(0);
      } finally {
        await t.close();
      }
    },
  );
});

describe('the admin command', () => {
  // It used to be an HTTP route guarded by "loopback + token"; behind a reverse proxy on the same
  // machine every visitor is loopback. It now lives on DATA_DIR/admin.sock only.
  it('has no route on the public HTTP port', async () => {
    const t = await createTestApp();
    try {
      const cookie = await signUpViaApi(t.app, { email: 'someone@example.com' });
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/admin/pro',
        headers: { origin: t.url, 'x-admin-token': t.config.adminToken },
        payload: { email: 'someone@example.com', isPro: true },
      });
      expect(response.statusCode).toBe(404);
      const me = await t.app.inject({ url: '/api/me', headers: { cookie } });
      expect(me.json()).toMatchObject({ isPro: false });
    } finally {
      await t.close();
    }
  });
});
