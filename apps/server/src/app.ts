import { existsSync } from 'node:fs';
import path from 'node:path';
import helmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyRequest,
} from 'fastify';
import { publicConfigSchema } from '@cadence/shared/schemas/user';
import { authRoutes } from './auth/routes.ts';
import { requireSessionUser, type SessionUser } from './auth/session.ts';
import type { AppContext } from './context.ts';
import { AppError, registerErrorHandler } from './lib/app-error.ts';
import { tiktokSandbox } from '@cadence/tiktok-sandbox';
import { accountRoutes } from './modules/accounts/routes.ts';
import { adminRoutes } from './modules/admin/routes.ts';
import { mediaRoutes } from './modules/media/routes.ts';
import { scheduleRoutes } from './modules/schedules/routes.ts';
import { storyRoutes } from './modules/stories/routes.ts';
import { memeRoutes } from './modules/memes/routes.ts';
import { MediaRejectedError } from './modules/media/service.ts';
import { PostgresLocker } from './modules/uploads/postgres-locker.ts';
import { TusHookError, tusUploads } from './modules/uploads/tus.ts';
import { getSessionUser } from './auth/session.ts';
import { healthRoutes } from './modules/health/routes.ts';
import { userRoutes } from './modules/users/routes.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The signed-in user, or a 401 AppError. */
    requireUser(request: FastifyRequest): Promise<SessionUser>;
  }
}

export const webDistDir = path.resolve(import.meta.dirname, '../../web/dist');

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
  const app: FastifyInstance = Fastify({
    loggerInstance: logger,
    trustProxy: context.config.publicUrl.startsWith('https://'),
    bodyLimit: 1024 * 1024,
  });

  registerErrorHandler(app);
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
  await app.register(helmet, {
    contentSecurityPolicy: contentSecurityPolicy(context),
    crossOriginEmbedderPolicy: false,
    // HSTS only means something over HTTPS; on plain-HTTP local installs it is noise.
    hsts: context.config.publicUrl.startsWith('https://'),
  });

  app.decorate('requireUser', (request: FastifyRequest) =>
    requireSessionUser(context.auth, request),
  );

  await app.register(authRoutes, {
    auth: context.auth,
    loginRateLimitPerMinute: context.config.loginRateLimitPerMinute,
  });
  await app.register(healthRoutes, { context });
  await app.register(userRoutes, { users: context.users });
  await app.register(adminRoutes, { users: context.users, adminToken: context.config.adminToken });
  await app.register(accountRoutes, { service: context.accounts, auth: context.auth });
  await app.register(mediaRoutes, { media: context.media });
  await app.register(scheduleRoutes, { schedules: context.schedules });
  await app.register(storyRoutes, { stories: context.stories });
  await app.register(memeRoutes, { memes: context.memes });
  await app.register(uploadRoutes, { context });
  if (context.sandbox) {
    await app.register(tiktokSandbox, {
      prefix: '/sandbox/tiktok',
      state: context.sandbox,
      publicBaseUrl: `${context.config.publicUrl}/sandbox/tiktok`,
      enableControl: context.config.env !== 'production',
    });
  }

  app.get('/api/public-config', () =>
    publicConfigSchema.parse({
      ...context.config.publicInfo,
      tiktokSandbox: context.config.tiktok.sandbox,
      maxUploadBytes: context.config.uploads.maxBytes,
    }),
  );

  await registerSpa(app);
  return app;
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

/** Resumable uploads (tus) at /api/uploads; each finished upload becomes media or is refused. */
async function uploadRoutes(app: FastifyInstance, { context }: { context: AppContext }) {
  const refuse = (error: unknown): never => {
    if (error instanceof MediaRejectedError) {
      throw new TusHookError(
        422,
        JSON.stringify({ code: 'media_rejected', reasons: error.reasons }),
      );
    }
    throw error;
  };
  // Several API processes may share one PostgreSQL database and one storage: their tus locks must
  // be shared too. PGlite serves a single process, where tus's in-memory lock is enough.
  const { database } = context;
  const locker =
    database.kind === 'postgres' && database.connectionString
      ? await PostgresLocker.start({
          db: database.db,
          connectionString: database.connectionString,
          onError: (error) => app.log.warn({ err: error }, 'upload lock problem'),
        })
      : undefined;
  if (locker) app.addHook('onClose', () => locker.close());
  await app.register(tusUploads, {
    datastore: context.storage.createTusDatastore(),
    ...(locker && { locker }),
    path: '/api/uploads',
    maxSizeBytes: context.config.uploads.maxBytes,
    getUserId: async (request) => (await getSessionUser(context.auth, request))?.id ?? null,
    onUploadCreate: (userId, upload) =>
      context.media.assertQuota(userId, upload.size ?? 0).catch(refuse),
    onUploadFinished: async (userId, upload) => {
      const filename = upload.metadata?.filename ?? upload.metadata?.name ?? 'video';
      const purpose = upload.metadata?.purpose === 'source' ? 'source' : 'post';
      await context.media
        .acceptUpload(userId, { id: upload.id, originalName: filename, purpose })
        .catch(refuse);
    },
  });
}

/** Serves the built SPA; any non-API GET falls back to index.html so client routes work on reload. */
async function registerSpa(app: FastifyInstance): Promise<void> {
  const spaBuilt = existsSync(path.join(webDistDir, 'index.html'));
  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    const isApi = pathname.startsWith('/api/') || pathname.startsWith('/sandbox/');
    if (!spaBuilt || request.method !== 'GET' || isApi) {
      return reply
        .status(404)
        .send({ code: 'not_found', message: `No route ${request.method} ${pathname}` });
    }
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
  if (!spaBuilt) return;
  await app.register(fastifyStatic, {
    root: webDistDir,
    wildcard: false,
    index: false,
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
