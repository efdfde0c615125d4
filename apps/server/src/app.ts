import { existsSync } from 'node:fs';
import path from 'node:path';
import { constants as zlibConstants } from 'node:zlib';
import fastifyHelmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import compress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import helmet, { type HelmetOptions } from 'helmet';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyRequest,
} from 'fastify';
import { publicConfigSchema } from '@cadence/shared/schemas/user';
import { authRoutes } from './auth/routes.ts';
import { getSessionUser, requireSessionUser, type SessionUser } from './auth/session.ts';
import type { AppContext } from './context.ts';
import { AppError, frameworkErrorOptions, registerErrorHandler } from './lib/app-error.ts';
import { registerJsonBodyParser } from './lib/json-body.ts';
import { registerOpenApi } from './openapi/plugin.ts';
import { assertSameOriginRequest } from './auth/same-origin.ts';
import { tiktokSandbox } from '@cadence/tiktok-sandbox';
import { accountRoutes } from './modules/accounts/routes.ts';
import { notificationRoutes } from './modules/notifications/routes.ts';
import { dataRightsRoutes } from './modules/data-rights/routes.ts';
import { draftRoutes } from './modules/drafts/routes.ts';
import { analyticsRoutes } from './modules/analytics/routes.ts';
import { mediaRoutes } from './modules/media/routes.ts';
import { pullMediaRoutes } from './modules/publishing/pull-routes.ts';
import { createPullUrls } from './modules/publishing/pull-urls.ts';
import { scheduleRoutes } from './modules/schedules/routes.ts';
import { storyRoutes } from './modules/stories/routes.ts';
import { memeRoutes } from './modules/memes/routes.ts';
import { uploadRoutes } from './modules/uploads/routes.ts';
import { healthRoutes } from './modules/health/routes.ts';
import { requireVerifiedEmailToPublish } from './modules/users/publishing-guard.ts';
import { userRoutes } from './modules/users/routes.ts';
import { loadSpaPages, pageEncoding, pageFor, type SpaRoutePages } from './spa-pages.ts';

/** Where the local TikTok sandbox is mounted when no TikTok app is configured. */
const SANDBOX_PREFIX = '/sandbox/tiktok';

declare module 'fastify' {
  interface FastifyInstance {
    /** The signed-in user, or a 401 AppError. */
    requireUser(request: FastifyRequest): Promise<SessionUser>;
  }
}

/** Text worth compressing: JSON, HTML, JS, XML — not text/event-stream, media or uploads. */
const COMPRESSIBLE_TYPES = /^text\/(?!event-stream)|[+/]json(?:;|$)|[+/]xml(?:;|$)|javascript/u;

export const webDistDir = path.resolve(import.meta.dirname, '../../web/dist');

/** Helmet's headers, for every answer: through @fastify/helmet, and for Fastify's own refusals. */
function securityHeaderOptions(context: AppContext): FastifyHelmetOptions {
  return {
    contentSecurityPolicy: contentSecurityPolicy(context),
    crossOriginEmbedderPolicy: false,
    // HSTS only means something over HTTPS; on plain-HTTP local installs it is noise.
    hsts: context.config.publicUrl.startsWith('https://'),
  };
}

function contentSecurityPolicy(context: AppContext) {
  const https = context.config.publicUrl.startsWith('https://');
  return {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'"],
      imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
      mediaSrc: ["'self'", 'blob:'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      frameAncestors: ["'none'"],
      formAction: ["'self'", context.config.tiktok.authBase],
      ...(https && { upgradeInsecureRequests: [] }),
    },
  };
}

/** Builds the HTTP app: external plugins, then ours, then routes, then the SPA. */
export async function buildApp(
  context: AppContext,
  logger: FastifyBaseLogger,
): Promise<FastifyInstance> {
  const securityHeaders = securityHeaderOptions(context);
  const app = createFastify(context, logger, securityHeaders);
  registerErrorHandler(app);
  registerJsonBodyParser(app);
  addRequestGuards(app, context);
  await registerHttpPlugins(app, context, securityHeaders);
  await registerRoutes(app, context);
  registerPublicConfigRoute(app, context);

  // No cookie, no session to look up; a failed look-up only costs the page its data preloads.
  await registerSpa(app, webDistDir, (request) =>
    request.headers.cookie === undefined
      ? Promise.resolve(false)
      : getSessionUser(context.auth, request).then(
          (user) => user !== null,
          () => false,
        ),
  );
  return app;
}

/** The Fastify instance with its limits, and security headers on its own refusals too. */
function createFastify(
  context: AppContext,
  logger: FastifyBaseLogger,
  securityHeaders: FastifyHelmetOptions,
): FastifyInstance {
  // The same options: @fastify/helmet reads helmet's CommonJS declarations, this import its ES
  // module ones, which TypeScript takes for two unrelated types.
  const applySecurityHeaders = helmet(securityHeaders as HelmetOptions);
  return Fastify({
    loggerInstance: logger,
    // Never `true`: X-Forwarded-For's left-most entry is whatever the client wrote (TRUST_PROXY).
    trustProxy: trustedProxies(context.config.trustProxy),
    bodyLimit: 1024 * 1024,
    // No total request time (a slow 50 MB upload chunk may take minutes), but a connection that
    // stalls mid-request is closed: a client that sent headers, or part of a body, and nothing
    // since would otherwise hold its socket, and a route waiting on its body, for ever. A browser
    // whose upload stalled resumes it (tus asks the offset and sends the rest).
    connectionTimeout: context.config.httpIdleTimeoutMs,
    ...frameworkErrorOptions((request, reply) =>
      applySecurityHeaders(request.raw, reply.raw, () => undefined),
    ),
  });
}

/** Checks every request passes before its route: same origin, no NUL byte; API answers uncached. */
function addRequestGuards(app: FastifyInstance, context: AppContext): void {
  // CSRF: one check for every state-changing route of Cadence (API, uploads). The sandbox stands
  // in for TikTok, another site: its consent page posts with `Origin: null` (no-referrer), as
  // TikTok's own does, and is protected by OAuth's state and PKCE instead.
  const publicOrigin = new URL(context.config.publicUrl).origin;
  app.addHook('onRequest', async (request) => {
    if (context.sandbox && request.url.startsWith(`${SANDBOX_PREFIX}/`)) return;
    assertSameOriginRequest(request, publicOrigin);
  });
  // An API answer is one person's data at one moment: no cache keeps it (a reload, a Back or the
  // page's own preload of it must never show an older one) unless its route says otherwise (a
  // video's thumbnail: private, and the same for as long as its address lives). Errors included.
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.url.startsWith('/api/') && !reply.hasHeader('cache-control')) {
      void reply.header('cache-control', 'no-store');
    }
    return payload;
  });
  // PostgreSQL text cannot hold a NUL byte: refuse it at the door for every route, rather than let
  // a query fail with a 500 somewhere deeper.
  app.addHook('preValidation', async (request) => {
    if (
      containsNulByte(request.body) ||
      containsNulByte(request.query) ||
      containsNulByte(request.params)
    ) {
      throw new AppError('validation_failed', 'NUL bytes are not allowed');
    }
  });
}

/** Security headers, compression, `requireUser`, the OpenAPI document, the publishing guard. */
async function registerHttpPlugins(
  app: FastifyInstance,
  context: AppContext,
  securityHeaders: FastifyHelmetOptions,
): Promise<void> {
  await app.register(fastifyHelmet, securityHeaders);

  // API answers (JSON, the OpenAPI document) are compressed when the client accepts it; the web
  // app's files are compressed once at build time and served as they are (registerSpa). Never the
  // live event stream (each event must leave at once), media or uploads (binary, ranged).
  await app.register(compress, {
    global: true,
    threshold: 1024,
    encodings: ['br', 'gzip'],
    customTypes: COMPRESSIBLE_TYPES,
    // Quality 4: most of the gain at a few percent of quality 11's time, per response.
    brotliOptions: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 4 } },
  });

  app.decorate('requireUser', (request: FastifyRequest) =>
    requireSessionUser(context.auth, request),
  );
  // Before the routes: they declare zod schemas, and the document lists routes added after it.
  await registerOpenApi(app);
  // Before the routes: REQUIRE_EMAIL_VERIFICATION holds the publishing routes back.
  requireVerifiedEmailToPublish(app, context.emailVerification);
}

/** Every module's routes, each given its service; the TikTok sandbox when it stands in for TikTok. */
async function registerRoutes(app: FastifyInstance, context: AppContext): Promise<void> {
  await app.register(authRoutes, {
    auth: context.auth,
    loginRateLimitPerMinute: context.config.loginRateLimitPerMinute,
    signUpRateLimitPerHour: context.config.signUpRateLimitPerHour,
    passwordResetRateLimitPerHour: context.config.passwordResetRateLimitPerHour,
  });
  await app.register(healthRoutes, {
    database: context.database,
    media: context.config.media,
    workerMode: context.config.worker.embedded ? 'embedded' : 'off',
  });
  await app.register(userRoutes, {
    users: context.users,
    auth: context.auth,
    emailChange: context.emailChange,
    emailVerification: context.emailVerification,
  });
  await app.register(accountRoutes, { service: context.accounts, auth: context.auth });
  await app.register(mediaRoutes, { media: context.media });
  const pullUrls = createPullUrls(context.config);
  if (pullUrls !== null) {
    await app.register(pullMediaRoutes, {
      db: context.database.db,
      storage: context.storage,
      pullUrls,
    });
  }
  await app.register(scheduleRoutes, {
    schedules: context.schedules,
    listing: context.postListing,
    notificationsSince: (userId, since) => context.notifications.createdSince(userId, since),
  });
  await app.register(notificationRoutes, { notifications: context.notifications });
  await app.register(dataRightsRoutes, {
    dataRights: context.dataRights,
    dataExports: context.dataExports,
    auth: context.auth,
  });
  await app.register(draftRoutes, { drafts: context.drafts });
  await app.register(storyRoutes, { stories: context.stories });
  await app.register(analyticsRoutes, { analytics: context.analytics });
  await app.register(memeRoutes, { memes: context.memes });
  await app.register(uploadRoutes, {
    database: context.database,
    media: context.media,
    storage: context.storage,
    auth: context.auth,
    maxBytes: context.config.uploads.maxBytes,
  });
  if (context.sandbox) {
    await app.register(tiktokSandbox, {
      prefix: SANDBOX_PREFIX,
      state: context.sandbox,
      publicBaseUrl: `${context.config.publicUrl}${SANDBOX_PREFIX}`,
      // Fault injection and the ledger (every user's posts) are test tooling: NODE_ENV=test only.
      enableControl: context.config.env === 'test',
    });
  }
}

/** GET /api/public-config: what the browser may know of the configuration (an allow-list). */
function registerPublicConfigRoute(app: FastifyInstance, context: AppContext): void {
  app.get(
    '/api/public-config',
    { schema: { tags: ['config'], response: { 200: publicConfigSchema } } },
    () =>
      publicConfigSchema.parse({
        ...context.config.publicInfo,
        tiktokSandbox: context.config.tiktok.sandbox,
        maxUploadBytes: context.config.uploads.maxBytes,
        tiktokDailyPostCap: context.config.planning.dailyPostCap,
        tiktokAppAudited: context.config.tiktok.audited,
        requireEmailVerification: context.config.requireEmailVerification,
      }),
  );
}

/** Walks parsed JSON (and query/params) only: streamed bodies (uploads) are not plain data. */
function containsNulByte(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (depth > 32 || value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some((item) => containsNulByte(item, depth + 1));
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return false;
  return Object.entries(value).some(
    ([key, item]) => key.includes('\u0000') || containsNulByte(item, depth + 1),
  );
}

/**
 * Serves the built SPA; any non-API GET falls back to index.html so client routes work on reload.
 * Source maps stay on disk (for decoding stack traces) and are never served: they would publish
 * the app's source. `isSignedIn` picks a route's page with its first screen's API requests named
 * (spa-pages.ts); without it, every visitor gets the signed-out page.
 */
export async function registerSpa(
  app: FastifyInstance,
  root: string,
  isSignedIn: (request: FastifyRequest) => Promise<boolean> = () => Promise.resolve(false),
): Promise<void> {
  const spaBuilt = existsSync(path.join(root, 'index.html'));
  // Build by-products that stay on disk: source maps (for stack traces) and anything in a dot
  // folder, such as the module manifest (.vite/manifest.json) the route budgets read.
  const isPrivate = (rawPathname: string) => {
    let pathname = rawPathname;
    try {
      pathname = decodeURIComponent(rawPathname);
    } catch {
      // Malformed escapes: judged as sent (the file lookup fails on them anyway).
    }
    return (
      pathname.endsWith('.map') || pathname.split('/').some((segment) => segment.startsWith('.'))
    );
  };
  // The page per route, naming the route's chunks for the browser to fetch at once (spa-pages.ts).
  const pages = spaBuilt ? loadSpaPages(root) : new Map<string, SpaRoutePages>();
  app.setNotFoundHandler(async (request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    const isApi = pathname.startsWith('/api/') || pathname.startsWith('/sandbox/');
    // A missing asset (or a private file) is a 404, not index.html the browser would try to run.
    const isAsset = pathname.startsWith('/assets/') || isPrivate(pathname);
    if (!spaBuilt || request.method !== 'GET' || isApi || isAsset) {
      return reply
        .status(404)
        .send({ code: 'not_found', message: `No route ${request.method} ${pathname}` });
    }
    const routePages = pages.get(pathname.replace(/(.)\/+$/, '$1'));
    if (routePages === undefined)
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    const signedIn = await isSignedIn(request);
    const page = pageFor(routePages, signedIn, request.url);
    void reply
      // A signed-in page names the API requests of a person's screen: no shared cache keeps it.
      .header('cache-control', signedIn ? 'private, no-cache' : 'no-cache')
      .header('vary', 'accept-encoding, cookie')
      .header('etag', page.etag);
    if (request.headers['if-none-match'] === page.etag) return reply.status(304).send();
    const encoding = pageEncoding(request.headers['accept-encoding']);
    if (encoding !== 'identity') void reply.header('content-encoding', encoding);
    return reply.type('text/html; charset=utf-8').send(page.body(encoding));
  });
  if (!spaBuilt) return;
  await app.register(fastifyStatic, {
    root,
    wildcard: false,
    index: false,
    allowedPath: (pathname) => !isPrivate(pathname),
    // The .br and .gz copies the build made (apps/web/vite.config.ts), chosen by Accept-Encoding.
    preCompressed: true,
    setHeaders: (reply, filePath) => {
      // Vite fingerprints assets: cache them for a year; index.html never.
      void reply.header(
        'cache-control',
        filePath.includes(`${path.sep}assets${path.sep}`)
          ? 'public, max-age=31536000, immutable'
          : 'no-cache',
      );
    },
  });
}

/**
 * Fastify's `trustProxy` for TRUST_PROXY: a list as it is, a hop count as the function Fastify
 * itself makes of one (the typings take no number), 0 as none.
 */
function trustedProxies(
  setting: number | string[],
): false | string[] | ((address: string, hop: number) => boolean) {
  if (Array.isArray(setting)) return setting;
  return setting === 0 ? false : (_address, hop) => hop < setting;
}
