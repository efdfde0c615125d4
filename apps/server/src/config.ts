import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isIP } from 'node:net';
import { z } from 'zod';
import { X264_PRESETS } from './media/x264.ts';

/**
 * The only module that reads process.env. Everything is parsed at start-up; a bad value stops the
 * process with one message naming every wrong variable.
 */
const optionalString = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .optional();

/** The address of `a@b.c` or `Name <a@b.c>`; null when it is neither. */
function mailFromAddress(value: string): string | null {
  const address = /^[^<>]*<([^<>]+)>$/.exec(value)?.[1] ?? value;
  return z.email().safeParse(address.trim()).success ? address.trim() : null;
}

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  /**
   * A connection that moves no byte this long in the middle of a request is closed (a stalled
   * upload, a client that sent headers and stopped). Above Fastify's 72 s keep-alive so that idle
   * keep-alive connections still end by that one, as proxies in front expect.
   */
  HTTP_IDLE_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(90),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: optionalString.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
      .optional(),
  ),
  PUBLIC_URL: optionalString.pipe(z.url({ protocol: /^https?$/ }).optional()),
  /**
   * Which proxies in front may say who the client is (X-Forwarded-For, -Proto, -Host): a number of
   * hops, or addresses and CIDR ranges (proxy-addr's names loopback, linklocal and uniquelocal
   * too). The client's address keys the login, sign-up and reset limits, so a client must never be
   * able to write it: never "every proxy".
   */
  TRUST_PROXY: optionalString.pipe(
    z
      .string()
      .transform((value, context): number | string[] => {
        if (/^(?:[0-9]|10)$/.test(value)) return Number(value);
        const entries = value.split(',').map((entry) => entry.trim());
        if (entries.every(isProxyAddress)) return entries;
        context.addIssue({
          code: 'custom',
          message:
            'a number of proxy hops (0 to 10) or a comma-separated list of addresses and CIDR ranges',
        });
        return z.NEVER;
      })
      .optional(),
  ),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Unset: readable lines on a terminal, JSON lines otherwise (lib/logger.ts). */
  LOG_FORMAT: z.enum(['json', 'pretty']).optional(),
  SESSION_SECRET: optionalString.pipe(
    z.string().min(32, 'must be at least 32 characters').optional(),
  ),
  TOKEN_ENCRYPTION_KEY: optionalString.pipe(
    z
      .string()
      .regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hexadecimal characters (32 bytes)')
      .optional(),
  ),
  TIKTOK_CLIENT_KEY: optionalString,
  TIKTOK_CLIENT_SECRET: optionalString,
  TIKTOK_API_BASE: optionalString.pipe(z.url().optional()),
  TIKTOK_AUTH_BASE: optionalString.pipe(z.url().optional()),
  /**
   * PULL_FROM_URL: a URL prefix the operator verified with TikTok that leads to
   * PUBLIC_URL/api/pull-media/ (unset: FILE_UPLOAD, chunks uploaded by the worker).
   */
  TIKTOK_PULL_FROM_URL_PREFIX: optionalString.pipe(z.url({ protocol: /^https?$/ }).optional()),
  /** Sandbox mode only: how long the sandbox's moderation holds a published post's id back. */
  TIKTOK_SANDBOX_POST_ID_DELAY_MS: z.coerce
    .number()
    .int()
    .min(0)
    .max(72 * 3600 * 1000)
    .optional(),
  /**
   * Sandbox mode only: the window the sandbox counts TikTok's per-token rate limits over, and the
   * publisher paces video inits over (default TikTok's minute). For tests that must see it pass.
   */
  TIKTOK_SANDBOX_RATE_LIMIT_WINDOW_MS: z.coerce.number().int().min(1_000).max(60_000).optional(),
  WORKER: z.enum(['embedded', 'off']).default('embedded'),
  // Publish jobs at once per worker process (jobs/queue.ts); they mostly wait on TikTok.
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(100),
  LOGIN_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(1000).default(10),
  SIGNUP_RATE_LIMIT_PER_HOUR: z.coerce.number().int().min(1).max(100_000).default(20),
  PASSWORD_RESET_RATE_LIMIT_PER_HOUR: z.coerce.number().int().min(1).max(100_000).default(10),
  SMTP_URL: optionalString.pipe(
    z
      .url({
        protocol: /^smtps?$/,
        error: 'must be an smtp:// or smtps:// URL, e.g. smtps://user:password@smtp.example.com',
      })
      .optional(),
  ),
  MAIL_FROM: optionalString.pipe(
    z
      .string()
      .refine(
        (value) => mailFromAddress(value) !== null,
        'must be an address, or a name and an address: Cadence <no-reply@example.com>',
      )
      .optional(),
  ),
  /** true: a verification link is mailed at sign-up and publishing waits until it is opened. */
  REQUIRE_EMAIL_VERIFICATION: z.enum(['true', 'false']).default('false'),
  FFMPEG_PATH: z.string().default('ffmpeg'),
  FFPROBE_PATH: z.string().default('ffprobe'),
  YTDLP_PATH: z.string().default('yt-dlp'),
  /**
   * The lease of a story render or meme stage (MEDIA_JOB_LEASE, 60 s): how long after its worker
   * dies the job is taken up again. Shorter only for tests that kill workers.
   */
  MEDIA_JOB_LEASE_MS: z.coerce.number().int().min(5_000).max(3_600_000).default(60_000),
  /**
   * The publish sweep wakes posts whose wake-up is PUBLISH_SWEEP_GRACE_MS overdue (a lost job, a
   * dead worker's lease), every PUBLISH_SWEEP_INTERVAL_MS. Shorter only for tests that kill workers.
   */
  PUBLISH_SWEEP_INTERVAL_MS: z.coerce.number().int().min(1_000).max(60_000).default(60_000),
  PUBLISH_SWEEP_GRACE_MS: z.coerce.number().int().min(5_000).max(3_600_000).default(60_000),
  COMPANY_NAME: z.string().default('Cadence Software Ltd'),
  COMPANY_NUMBER: z.string().default('00000000'),
  DATA_PROTECTION_NUMBER: z.string().default('ZA000000'),
  CONTACT_EMAIL: z.email().default('privacy@cadence.example'),
  STORAGE: z.enum(['local', 's3']).default('local'),
  S3_ENDPOINT: optionalString.pipe(z.url().optional()),
  S3_REGION: z.string().default('us-east-1'),
  S3_BUCKET: optionalString,
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  S3_FORCE_PATH_STYLE: z.enum(['true', 'false']).default('true'),
  MAX_UPLOAD_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(4 * 1024 ** 3),
  USER_QUOTA_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(20 * 1024 ** 3),
  /** An unfinished upload holds its quota this long after its last activity, then is deleted. */
  UPLOAD_EXPIRY_HOURS: z.coerce
    .number()
    .min(1)
    .max(24 * 7)
    .default(24),
  STORY_RENDER_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(1),
  /** Cadence's estimate of TikTok's direct posts per account per day ("typically around 15"). */
  TIKTOK_DAILY_POST_CAP: z.coerce.number().int().min(1).max(1000).default(15),
  /**
   * false while TikTok has not audited the app (every new app): it may then post only 'Only me'
   * to private accounts, for at most 5 creators per 24 h. The sandbox mirrors it.
   */
  TIKTOK_APP_AUDITED: z.enum(['true', 'false']).default('true'),
  /** x264 preset of meme compilations; tests use 'ultrafast' (2-core machines). */
  MEME_COMPILE_PRESET: z.enum(X264_PRESETS).default('veryfast'),
  /**
   * Tests and benchmarks only: a loopback server standing in for YouTube, which yt-dlp asks for a
   * link's video id as `<origin>/<id>.mp4`. Links are validated exactly as without it; only the
   * operator chooses where they are fetched, and only on this machine.
   */
  YOUTUBE_TEST_ORIGIN: optionalString.pipe(
    z
      .url({
        protocol: /^http$/,
        hostname: /^(?:127\.0\.0\.1|localhost|\[::1\])$/,
        error:
          'must be a loopback origin such as http://127.0.0.1:8080 (tests and benchmarks only)',
      })
      .refine(
        (value) => new URL(value).origin === value.replace(/\/$/, ''),
        'must be an origin only, without a path, query or user name',
      )
      .transform((value) => new URL(value).origin)
      .optional(),
  ),
});

export type Env = z.infer<typeof envSchema>;

function isProxyAddress(entry: string): boolean {
  if (['loopback', 'linklocal', 'uniquelocal'].includes(entry)) return true;
  const [address = '', bits, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY, or by default one hop when PUBLIC_URL is https (Cadence serves plain HTTP, so an
 * https address means a TLS proxy in front, which appends the address it saw) and none otherwise.
 * With one hop, the client's address is the last one that proxy appended: whatever a client writes
 * into X-Forwarded-For itself stays to the left of it, unread.
 */
function trustProxyOf(
  setting: number | string[] | undefined,
  publicUrl: string,
): number | string[] {
  return setting ?? (publicUrl.startsWith('https://') ? 1 : 0);
}

export interface Config {
  env: Env['NODE_ENV'];
  port: number;
  host: string;
  /** HTTP_IDLE_TIMEOUT_SECONDS, in ms: Fastify's `connectionTimeout` (the socket's idle timeout). */
  httpIdleTimeoutMs: number;
  dataDir: string;
  /** `null` means the embedded PGlite database in DATA_DIR/pgdata. */
  databaseUrl: string | null;
  publicUrl: string;
  /** TRUST_PROXY: Fastify's `trustProxy`, hops or addresses (0: none). */
  trustProxy: number | string[];
  logLevel: Env['LOG_LEVEL'];
  logFormat: NonNullable<Env['LOG_FORMAT']> | null;
  sessionSecret: string;
  tokenEncryptionKey: Buffer;
  /** Local-only secret the admin CLI uses to reach a running server (PGlite allows one process). */
  adminToken: string;
  tiktok: {
    /** No TIKTOK_CLIENT_KEY: the server mounts its own sandbox and talks to it. */
    sandbox: boolean;
    clientKey: string;
    clientSecret: string;
    apiBase: string;
    authBase: string;
    /** TIKTOK_APP_AUDITED: false limits posting to SELF_ONLY on private accounts, 5 users/24 h. */
    audited: boolean;
    /** Sandbox mode: TIKTOK_SANDBOX_POST_ID_DELAY_MS (null: the sandbox's default, 5 minutes). */
    sandboxPostIdDelayMs: number | null;
    /**
     * Sandbox mode: TIKTOK_SANDBOX_RATE_LIMIT_WINDOW_MS (null: TikTok's minute, as with TikTok
     * itself, where it is always null).
     */
    sandboxRateLimitWindowMs: number | null;
    /** TIKTOK_PULL_FROM_URL_PREFIX; null: videos are uploaded in chunks (FILE_UPLOAD). */
    pullFromUrlPrefix: string | null;
  };
  worker: {
    embedded: boolean;
    concurrency: number;
    /** MEDIA_JOB_LEASE_MS: a story render's or meme stage's lease (heartbeat: MEDIA_JOB_LEASE). */
    mediaJobLeaseMs: number;
    /** PUBLISH_SWEEP_INTERVAL_MS and PUBLISH_SWEEP_GRACE_MS (both 60 s by default). */
    publishSweep: { intervalMs: number; graceMs: number };
  };
  loginRateLimitPerMinute: number;
  signUpRateLimitPerHour: number;
  /** Password reset requests (and reset attempts) per client IP per hour. */
  passwordResetRateLimitPerHour: number;
  mail: {
    /** null: no SMTP server, each message is written to `outboxDir` as an .eml file. */
    smtpUrl: string | null;
    from: string;
    /** DATA_DIR/outbox: never served over HTTP (the SPA is served from apps/web/dist only). */
    outboxDir: string;
  };
  /** REQUIRE_EMAIL_VERIFICATION: publishing is refused until the address is confirmed. */
  requireEmailVerification: boolean;
  media: { ffmpegPath: string; ffprobePath: string; ytDlpPath: string };
  storage:
    | { driver: 'local'; rootDir: string }
    | {
        driver: 's3';
        endpoint?: string;
        region: string;
        bucket: string;
        accessKeyId: string;
        secretAccessKey: string;
        forcePathStyle: boolean;
      };
  uploads: { maxBytes: number; userQuotaBytes: number; expiryMs: number };
  /** Story renders one worker process runs at once (each ffmpeg uses every core it gets). */
  stories: { renderConcurrency: number };
  /** Planning around TikTok's caps: posts per account per day (in the user's time zone). */
  planning: { dailyPostCap: number };
  /** Meme detector: x264 preset of the one-minute compilation. */
  memes: {
    compilePreset: Env['MEME_COMPILE_PRESET'];
    /** YOUTUBE_TEST_ORIGIN (tests and benchmarks only); null: links are fetched from YouTube. */
    youtubeTestOrigin: string | null;
  };
  /** What the browser may know: an explicit allow-list, served by GET /api/public-config. */
  publicInfo: {
    companyName: string;
    companyNumber: string;
    dataProtectionNumber: string;
    contactEmail: string;
  };
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

interface GeneratedSecrets {
  sessionSecret: string;
  tokenEncryptionKey: string;
  adminToken: string;
  sandboxClientSecret: string;
}

/** Secrets not given in the environment are generated once and kept in DATA_DIR/secrets.json (0600). */
function loadOrCreateSecrets(dataDir: string): GeneratedSecrets {
  const file = path.join(dataDir, 'secrets.json');
  const fresh: GeneratedSecrets = {
    sessionSecret: randomBytes(32).toString('base64url'),
    tokenEncryptionKey: randomBytes(32).toString('hex'),
    adminToken: randomBytes(24).toString('base64url'),
    sandboxClientSecret: randomBytes(24).toString('base64url'),
  };
  if (existsSync(file)) {
    const stored = z
      .object({
        sessionSecret: z.string(),
        tokenEncryptionKey: z.string(),
        adminToken: z.string(),
        sandboxClientSecret: z.string(),
      })
      .partial()
      .parse(JSON.parse(readFileSync(file, 'utf8')));
    const merged = { ...fresh, ...stored };
    if (Object.keys(stored).length < Object.keys(fresh).length) {
      writeFileSync(file, JSON.stringify(merged, null, 2), { mode: 0o600 });
    }
    return merged;
  }
  writeFileSync(file, JSON.stringify(fresh, null, 2), { mode: 0o600 });
  return fresh;
}

function httpsUrl(value: string | undefined): boolean {
  return (
    value !== undefined && URL.canParse(value.trim()) && new URL(value.trim()).protocol === 'https:'
  );
}

/** TIKTOK_AUTH_BASE is a sandbox on this machine (tests, benchmarks), not TikTok. */
function talksToLocalSandbox(source: NodeJS.ProcessEnv): boolean {
  const authBase = source.TIKTOK_AUTH_BASE?.trim() ?? '';
  if (!URL.canParse(authBase)) return false;
  return /^(?:127\.0\.0\.1|localhost|\[::1\])$/.test(new URL(authBase).hostname);
}

/** Variables that are only wrong together, read from the raw environment (blank = unset). */
function crossFieldProblems(source: NodeJS.ProcessEnv): string[] {
  const set = (name: string) => (source[name]?.trim() ?? '') !== '';
  const problems: string[] = [];
  if (set('TIKTOK_CLIENT_KEY') && !set('TIKTOK_CLIENT_SECRET')) {
    problems.push('  - TIKTOK_CLIENT_SECRET: required when TIKTOK_CLIENT_KEY is set');
  }
  if (set('TIKTOK_CLIENT_KEY') && !talksToLocalSandbox(source) && !httpsUrl(source.PUBLIC_URL)) {
    problems.push(
      '  - PUBLIC_URL: must be an https:// URL when TIKTOK_CLIENT_KEY is set: TikTok accepts only https redirect URIs (PUBLIC_URL/auth/callback) for web apps. Only the sandbox (no TIKTOK_CLIENT_KEY, or TIKTOK_AUTH_BASE on this machine) works over http',
    );
  }
  if (source.STORAGE === 's3') {
    for (const name of ['S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY']) {
      if (!set(name)) problems.push(`  - ${name}: required when STORAGE=s3`);
    }
  }
  return problems;
}

/** The environment parsed, or a ConfigError naming every wrong variable at once. */
function parseEnv(source: NodeJS.ProcessEnv): Env {
  const parsed = envSchema.safeParse(source);
  // Every wrong variable in one message, whether wrong alone or only together with another.
  const problems = [
    ...(parsed.success
      ? []
      : parsed.error.issues.map(
          (issue) => `  - ${issue.path.join('.') || '(root)'}: ${issue.message}`,
        )),
    ...crossFieldProblems(source),
  ];
  if (!parsed.success || problems.length > 0) {
    throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
  }
  return parsed.data;
}

/** TikTok's app, or with no TIKTOK_CLIENT_KEY the sandbox the server mounts at /sandbox/tiktok. */
function tiktokConfig(
  env: Env,
  sandboxClientSecret: string,
  publicUrl: string,
  pullFromUrlPrefix: string | null,
): Config['tiktok'] {
  const audited = env.TIKTOK_APP_AUDITED === 'true';
  if (!env.TIKTOK_CLIENT_KEY) {
    const sandboxBase = `${publicUrl}/sandbox/tiktok`;
    return {
      sandbox: true,
      clientKey: 'cadence-sandbox',
      clientSecret: sandboxClientSecret,
      apiBase: sandboxBase,
      authBase: sandboxBase,
      audited,
      sandboxPostIdDelayMs: env.TIKTOK_SANDBOX_POST_ID_DELAY_MS ?? null,
      sandboxRateLimitWindowMs: env.TIKTOK_SANDBOX_RATE_LIMIT_WINDOW_MS ?? null,
      pullFromUrlPrefix,
    };
  }
  return {
    sandbox: false,
    clientKey: env.TIKTOK_CLIENT_KEY,
    clientSecret: env.TIKTOK_CLIENT_SECRET ?? '',
    apiBase: env.TIKTOK_API_BASE ?? 'https://open.tiktokapis.com',
    authBase: env.TIKTOK_AUTH_BASE ?? 'https://www.tiktok.com',
    audited,
    sandboxPostIdDelayMs: null,
    sandboxRateLimitWindowMs: null,
    pullFromUrlPrefix,
  };
}

/** STORAGE=s3: the bucket and its credentials; otherwise files under DATA_DIR/media. */
function storageConfig(env: Env, dataDir: string): Config['storage'] {
  return env.STORAGE === 's3'
    ? {
        driver: 's3',
        ...(env.S3_ENDPOINT && { endpoint: env.S3_ENDPOINT }),
        region: env.S3_REGION,
        bucket: env.S3_BUCKET ?? '',
        accessKeyId: env.S3_ACCESS_KEY_ID ?? '',
        secretAccessKey: env.S3_SECRET_ACCESS_KEY ?? '',
        forcePathStyle: env.S3_FORCE_PATH_STYLE === 'true',
      }
    : { driver: 'local', rootDir: path.join(dataDir, 'media') };
}

export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const env = parseEnv(source);

  const dataDir = path.resolve(env.DATA_DIR);
  mkdirSync(dataDir, { recursive: true });
  const secrets = loadOrCreateSecrets(dataDir);
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, '');
  const pullFromUrlPrefix = env.TIKTOK_PULL_FROM_URL_PREFIX ?? null;
  // The signed links are PUBLIC_URL/api/pull-media/<post>?…: TikTok only pulls from the prefix.
  const pullBase = `${publicUrl}/api/pull-media/`;
  if (pullFromUrlPrefix !== null && !pullBase.startsWith(pullFromUrlPrefix)) {
    throw new ConfigError(
      `Invalid configuration:\n  - TIKTOK_PULL_FROM_URL_PREFIX: must be a prefix of ${pullBase} (where Cadence serves the videos TikTok pulls), e.g. ${publicUrl}/`,
    );
  }

  return {
    env: env.NODE_ENV,
    port: env.PORT,
    host: env.HOST,
    httpIdleTimeoutMs: env.HTTP_IDLE_TIMEOUT_SECONDS * 1000,
    dataDir,
    databaseUrl: env.DATABASE_URL ?? null,
    publicUrl,
    trustProxy: trustProxyOf(env.TRUST_PROXY, publicUrl),
    logLevel: env.LOG_LEVEL,
    logFormat: env.LOG_FORMAT ?? null,
    sessionSecret: env.SESSION_SECRET ?? secrets.sessionSecret,
    tokenEncryptionKey: Buffer.from(env.TOKEN_ENCRYPTION_KEY ?? secrets.tokenEncryptionKey, 'hex'),
    adminToken: secrets.adminToken,
    tiktok: tiktokConfig(env, secrets.sandboxClientSecret, publicUrl, pullFromUrlPrefix),
    worker: {
      embedded: env.WORKER === 'embedded',
      concurrency: env.WORKER_CONCURRENCY,
      mediaJobLeaseMs: env.MEDIA_JOB_LEASE_MS,
      publishSweep: {
        intervalMs: env.PUBLISH_SWEEP_INTERVAL_MS,
        graceMs: env.PUBLISH_SWEEP_GRACE_MS,
      },
    },
    loginRateLimitPerMinute: env.LOGIN_RATE_LIMIT_PER_MINUTE,
    signUpRateLimitPerHour: env.SIGNUP_RATE_LIMIT_PER_HOUR,
    passwordResetRateLimitPerHour: env.PASSWORD_RESET_RATE_LIMIT_PER_HOUR,
    mail: {
      smtpUrl: env.SMTP_URL ?? null,
      from: env.MAIL_FROM ?? `Cadence <no-reply@${new URL(publicUrl).hostname}>`,
      outboxDir: path.join(dataDir, 'outbox'),
    },
    requireEmailVerification: env.REQUIRE_EMAIL_VERIFICATION === 'true',
    media: {
      ffmpegPath: env.FFMPEG_PATH,
      ffprobePath: env.FFPROBE_PATH,
      ytDlpPath: env.YTDLP_PATH,
    },
    storage: storageConfig(env, dataDir),
    uploads: {
      maxBytes: env.MAX_UPLOAD_BYTES,
      userQuotaBytes: env.USER_QUOTA_BYTES,
      expiryMs: env.UPLOAD_EXPIRY_HOURS * 3600 * 1000,
    },
    stories: { renderConcurrency: env.STORY_RENDER_CONCURRENCY },
    planning: { dailyPostCap: env.TIKTOK_DAILY_POST_CAP },
    memes: {
      compilePreset: env.MEME_COMPILE_PRESET,
      youtubeTestOrigin: env.YOUTUBE_TEST_ORIGIN ?? null,
    },
    publicInfo: {
      companyName: env.COMPANY_NAME,
      companyNumber: env.COMPANY_NUMBER,
      dataProtectionNumber: env.DATA_PROTECTION_NUMBER,
      contactEmail: env.CONTACT_EMAIL,
    },
  };
}

/** For entry points: print the list of bad variables and exit 1 instead of a stack trace. */
export function loadConfigOrExit(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}
