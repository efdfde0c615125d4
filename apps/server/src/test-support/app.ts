import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pino from 'pino';
import { buildApp } from '../app.ts';
import { bootstrap } from '../bootstrap.ts';
import { loadConfig, type Config } from '../config.ts';
import type { AppContext } from '../context.ts';
import { openDatabase } from '../db/client.ts';
import { freePort } from '../../../../e2e/support/server.ts';
import { openTestDatabase } from './database.ts';

export interface TestApp {
  app: FastifyInstance;
  /** Set when created with `listen: true`: the origin the app listens on (also its PUBLIC_URL). */
  url: string;
  context: AppContext;
  config: Config;
  close(): Promise<void>;
}

export const testOrigin = 'http://localhost:3000';

/** A test app's environment, or one made from the origin it will have (its PUBLIC_URL). */
export type TestEnv = NodeJS.ProcessEnv | ((url: string) => NodeJS.ProcessEnv);

/**
 * The real app (routes, auth, pg-boss, TikTok sandbox) on a fresh test database, driven with
 * `app.inject()`. With `listen: true` it also serves real HTTP on a free port, which the server's
 * own TikTok client then reaches, exactly as in production sandbox mode.
 *
 * `sameDeploymentAs` makes another process of an existing app's deployment instead: its own
 * connection pool on the same PostgreSQL database, and the same DATA_DIR (hence the same secrets,
 * sessions and upload directory). Close it before the app it joins, which owns both.
 */
export async function createTestApp(
  env: TestEnv = {},
  options: {
    listen?: boolean;
    sameDeploymentAs?: TestApp;
    /** The app's logger (default: silent), e.g. to check what reaches error level. */
    logger?: pino.Logger;
  } = {},
): Promise<TestApp> {
  const joined = options.sameDeploymentAs;
  const dataDir = joined?.config.dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'cadence-test-'));
  const port = options.listen ? await freePort() : 0;
  const url = options.listen ? `http://127.0.0.1:${port}` : testOrigin;
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    PUBLIC_URL: url,
    LOG_LEVEL: 'silent',
    ...(typeof env === 'function' ? env(url) : env),
  });
  const database = joined ? await openSharedDatabase(joined) : await openTestDatabase();
  const logger = options.logger ?? pino({ level: 'silent' });
  const context = await bootstrap(config, { runWorkers: false, logger, database });
  const app = await buildApp(context, logger);
  if (options.listen) await app.listen({ port, host: '127.0.0.1' });
  return {
    app,
    url,
    context,
    config,
    async close() {
      await app.close();
      await context.shutdown();
      if (!joined) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function openSharedDatabase(joined: TestApp) {
  const url = joined.context.database.connectionString;
  // In-memory PGlite lives inside one process, as PGlite itself does in production.
  if (!url) throw new Error('only a PostgreSQL test app can be shared by several app instances');
  return openDatabase({ databaseUrl: url, pgliteDataDir: '', poolSize: 5 });
}

/** The session cookie pair (`name=value`) from a response, for the next request's Cookie header. */
export function sessionCookie(response: LightMyRequestResponse): string {
  const cookie = response.cookies.find((c) => c.name.endsWith('session_token'));
  if (!cookie)
    throw new Error(`no session cookie in response ${response.statusCode}: ${response.body}`);
  return `${cookie.name}=${cookie.value}`;
}

export async function signUpViaApi(
  app: FastifyInstance,
  user: {
    name?: string;
    email: string;
    password?: string;
    preferredLanguage?: 'fr' | 'en';
    timeZone?: string;
  },
  origin = testOrigin,
): Promise<string> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/auth/sign-up/email',
    headers: { origin },
    payload: { name: user.name ?? 'Test User', password: 'secret123', ...user },
  });
  if (response.statusCode !== 200)
    throw new Error(`sign-up failed: ${response.statusCode} ${response.body}`);
  return sessionCookie(response);
}
