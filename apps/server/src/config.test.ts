import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cadence-config-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('loadConfig', () => {
  it('names every bad variable at once', () => {
    let message = '';
    try {
      loadConfig({
        DATA_DIR: tempDir(),
        PORT: 'eighty',
        DATABASE_URL: 'mysql://x',
        TOKEN_ENCRYPTION_KEY: 'short',
        PUBLIC_URL: 'not a url',
        // Wrong only together with another variable: listed in the same message.
        TIKTOK_CLIENT_KEY: 'abc',
        STORAGE: 's3',
      });
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      message = (error as Error).message;
    }
    for (const name of [
      'PORT',
      'DATABASE_URL',
      'TOKEN_ENCRYPTION_KEY',
      'PUBLIC_URL',
      'TIKTOK_CLIENT_SECRET',
      'S3_BUCKET',
      'S3_ACCESS_KEY_ID',
      'S3_SECRET_ACCESS_KEY',
    ])
      expect(message).toContain(name);
  });

  it('requires the TikTok secret with the TikTok key', () => {
    expect(() => loadConfig({ DATA_DIR: tempDir(), TIKTOK_CLIENT_KEY: 'abc' })).toThrow(
      /TIKTOK_CLIENT_SECRET/,
    );
  });

  it('requires an https PUBLIC_URL with real TikTok credentials, and allows http with the sandbox', () => {
    const live = { DATA_DIR: tempDir(), TIKTOK_CLIENT_KEY: 'key', TIKTOK_CLIENT_SECRET: 'secret' };
    for (const publicUrl of [undefined, 'http://cadence.example']) {
      expect(() =>
        loadConfig({ ...live, ...(publicUrl !== undefined && { PUBLIC_URL: publicUrl }) }),
      ).toThrow(/PUBLIC_URL: must be an https:\/\/ URL when TIKTOK_CLIENT_KEY is set/);
    }
    expect(loadConfig({ ...live, PUBLIC_URL: 'https://cadence.example' }).publicUrl).toBe(
      'https://cadence.example',
    );
    // The built-in sandbox, or a sandbox on this machine standing in for TikTok, takes http.
    expect(
      loadConfig({ DATA_DIR: tempDir(), PUBLIC_URL: 'http://cadence.test' }).tiktok.sandbox,
    ).toBe(true);
    const localSandbox = loadConfig({
      ...live,
      PUBLIC_URL: 'http://127.0.0.1:3999',
      TIKTOK_AUTH_BASE: 'http://127.0.0.1:4010',
      TIKTOK_API_BASE: 'http://127.0.0.1:4010',
    });
    expect(localSandbox.tiktok.sandbox).toBe(false);
  });

  it('uses defaults, PGlite and the TikTok sandbox when nothing is configured', () => {
    const dataDir = tempDir();
    const config = loadConfig({ DATA_DIR: dataDir });
    expect(config).toMatchObject({
      port: 3000,
      databaseUrl: null,
      publicUrl: 'http://localhost:3000',
    });
    expect(config.tiktok).toMatchObject({
      sandbox: true,
      apiBase: 'http://localhost:3000/sandbox/tiktok',
      audited: true,
    });
    expect(config.tokenEncryptionKey).toHaveLength(32);
  });

  it('generates secrets into DATA_DIR once (0600) and reuses them on the next start', () => {
    const dataDir = tempDir();
    const first = loadConfig({ DATA_DIR: dataDir });
    const second = loadConfig({ DATA_DIR: dataDir });
    expect(second.sessionSecret).toBe(first.sessionSecret);
    expect(second.tokenEncryptionKey.equals(first.tokenEncryptionKey)).toBe(true);
    expect(statSync(path.join(dataDir, 'secrets.json')).mode & 0o777).toBe(0o600);
    expect(readFileSync(path.join(dataDir, 'secrets.json'), 'utf8')).toContain(first.sessionSecret);
  });

  it('prefers secrets given in the environment', () => {
    const config = loadConfig({
      DATA_DIR: tempDir(),
      SESSION_SECRET: 's'.repeat(40),
      TOKEN_ENCRYPTION_KEY: 'ab'.repeat(32),
    });
    expect(config.sessionSecret).toBe('s'.repeat(40));
    expect(config.tokenEncryptionKey.toString('hex')).toBe('ab'.repeat(32));
  });

  it('switches to live TikTok and PostgreSQL when configured', () => {
    const config = loadConfig({
      DATA_DIR: tempDir(),
      TIKTOK_CLIENT_KEY: 'key',
      TIKTOK_CLIENT_SECRET: 'secret',
      DATABASE_URL: 'postgres://db.example/cadence',
      PUBLIC_URL: 'https://cadence.example/',
    });
    expect(config.tiktok).toMatchObject({
      sandbox: false,
      apiBase: 'https://open.tiktokapis.com',
      authBase: 'https://www.tiktok.com',
    });
    expect(config.databaseUrl).toBe('postgres://db.example/cadence');
    expect(config.publicUrl).toBe('https://cadence.example');
  });

  it('trusts one proxy hop behind an https PUBLIC_URL, none otherwise, and never every proxy', () => {
    const trust = (env: NodeJS.ProcessEnv) =>
      loadConfig({ DATA_DIR: tempDir(), ...env }).trustProxy;
    expect(trust({ PUBLIC_URL: 'https://cadence.example' })).toBe(1);
    expect(trust({ PUBLIC_URL: 'http://localhost:3000' })).toBe(0);
    expect(trust({ PUBLIC_URL: 'https://cadence.example', TRUST_PROXY: '2' })).toBe(2);
    expect(trust({ TRUST_PROXY: 'loopback, 10.0.0.0/8, fd00::/8' })).toEqual([
      'loopback',
      '10.0.0.0/8',
      'fd00::/8',
    ]);
    for (const value of ['true', '*', '11', '10.0.0.0/33', 'example.com', '10.0.0.1/8/2']) {
      expect(() => trust({ TRUST_PROXY: value }), value).toThrow(/TRUST_PROXY/);
    }
  });

  it('knows an app TikTok has not audited yet (TIKTOK_APP_AUDITED=false) and refuses other values', () => {
    expect(loadConfig({ DATA_DIR: tempDir(), TIKTOK_APP_AUDITED: 'false' }).tiktok.audited).toBe(
      false,
    );
    expect(() => loadConfig({ DATA_DIR: tempDir(), TIKTOK_APP_AUDITED: 'no' })).toThrow(
      /TIKTOK_APP_AUDITED/,
    );
  });

  it('paces TikTok over its minute; only the sandbox takes TIKTOK_SANDBOX_RATE_LIMIT_WINDOW_MS', () => {
    const window = (env: NodeJS.ProcessEnv) =>
      loadConfig({ DATA_DIR: tempDir(), ...env }).tiktok.sandboxRateLimitWindowMs;
    expect(window({})).toBe(null);
    expect(window({ TIKTOK_SANDBOX_RATE_LIMIT_WINDOW_MS: '10000' })).toBe(10_000);
    // Live TikTok counts over its own minute, whatever the variable says.
    expect(
      window({
        TIKTOK_SANDBOX_RATE_LIMIT_WINDOW_MS: '10000',
        TIKTOK_CLIENT_KEY: 'key',
        TIKTOK_CLIENT_SECRET: 'secret',
        PUBLIC_URL: 'https://cadence.example/',
      }),
    ).toBe(null);
    for (const value of ['0', '999', '60001', 'x']) {
      expect(() => window({ TIKTOK_SANDBOX_RATE_LIMIT_WINDOW_MS: value }), value).toThrow(
        /TIKTOK_SANDBOX_RATE_LIMIT_WINDOW_MS/,
      );
    }
  });

  it('leases media jobs for 60 s unless MEDIA_JOB_LEASE_MS says otherwise (5 s at least)', () => {
    const lease = (env: NodeJS.ProcessEnv) =>
      loadConfig({ DATA_DIR: tempDir(), ...env }).worker.mediaJobLeaseMs;
    expect(lease({})).toBe(60_000);
    expect(lease({ MEDIA_JOB_LEASE_MS: '10000' })).toBe(10_000);
    expect(() => lease({ MEDIA_JOB_LEASE_MS: '4999' })).toThrow(/MEDIA_JOB_LEASE_MS/);
  });

  it('sweeps publish wake-ups a minute overdue each minute unless PUBLISH_SWEEP_* say otherwise', () => {
    const sweep = (env: NodeJS.ProcessEnv) =>
      loadConfig({ DATA_DIR: tempDir(), ...env }).worker.publishSweep;
    expect(sweep({})).toEqual({ intervalMs: 60_000, graceMs: 60_000 });
    expect(sweep({ PUBLISH_SWEEP_INTERVAL_MS: '10000', PUBLISH_SWEEP_GRACE_MS: '10000' })).toEqual({
      intervalMs: 10_000,
      graceMs: 10_000,
    });
    // pg-boss's cron ticks once a minute at most: longer would be a cron of its own.
    for (const value of ['999', '60001', 'x']) {
      expect(() => sweep({ PUBLISH_SWEEP_INTERVAL_MS: value }), value).toThrow(
        /PUBLISH_SWEEP_INTERVAL_MS/,
      );
    }
    for (const value of ['4999', '3600001', 'x']) {
      expect(() => sweep({ PUBLISH_SWEEP_GRACE_MS: value }), value).toThrow(
        /PUBLISH_SWEEP_GRACE_MS/,
      );
    }
  });

  it('fetches YouTube links from YouTube unless a loopback test origin is configured', () => {
    expect(loadConfig({ DATA_DIR: tempDir() }).memes.youtubeTestOrigin).toBe(null);
    for (const [value, origin] of [
      ['http://127.0.0.1:8080', 'http://127.0.0.1:8080'],
      ['http://localhost:8080/', 'http://localhost:8080'],
      ['http://[::1]:9000', 'http://[::1]:9000'],
    ]) {
      const config = loadConfig({ DATA_DIR: tempDir(), YOUTUBE_TEST_ORIGIN: value });
      expect(config.memes.youtubeTestOrigin).toBe(origin);
    }
    // Only this machine, only an origin: the setting cannot point yt-dlp anywhere else.
    for (const value of [
      'https://www.youtube.com',
      'http://10.0.0.5:8080',
      'http://169.254.169.254',
      'http://2130706433:8080',
      'http://127.0.0.1.evil.com',
      'http://127.0.0.1:8080/path',
      'http://127.0.0.1:8080/?q=1',
      'http://user@127.0.0.1:8080',
      'file:///tmp',
    ]) {
      expect(() => loadConfig({ DATA_DIR: tempDir(), YOUTUBE_TEST_ORIGIN: value }), value).toThrow(
        /YOUTUBE_TEST_ORIGIN/,
      );
    }
  });

  it('writes mail to DATA_DIR/outbox unless SMTP_URL is set, from MAIL_FROM or no-reply@host', () => {
    const dataDir = tempDir();
    expect(loadConfig({ DATA_DIR: dataDir }).mail).toEqual({
      smtpUrl: null,
      from: 'Cadence <no-reply@localhost>',
      outboxDir: path.join(dataDir, 'outbox'),
    });
    const configured = loadConfig({
      DATA_DIR: tempDir(),
      PUBLIC_URL: 'https://cadence.example',
      SMTP_URL: 'smtps://user:pass@smtp.example.com:465',
    });
    expect(configured.mail).toMatchObject({
      smtpUrl: 'smtps://user:pass@smtp.example.com:465',
      from: 'Cadence <no-reply@cadence.example>',
    });
    for (const from of ['hello@cadence.example', 'Cadence Team <hello@cadence.example>']) {
      expect(loadConfig({ DATA_DIR: tempDir(), MAIL_FROM: from }).mail.from).toBe(from);
    }
    for (const [name, value] of [
      ['SMTP_URL', 'http://smtp.example.com'],
      ['SMTP_URL', 'smtp.example.com:587'],
      ['MAIL_FROM', 'not an address'],
      ['MAIL_FROM', 'Cadence <not-an-address>'],
      ['MAIL_FROM', 'a@b.c <d@e.f> <g@h.i>'],
    ] as const) {
      expect(() => loadConfig({ DATA_DIR: tempDir(), [name]: value }), value).toThrow(
        new RegExp(name),
      );
    }
  });
});
