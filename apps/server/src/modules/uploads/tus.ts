// Resumable video uploads: the tus protocol (@tus/server) mounted inside Fastify, per user.
// Fastify only authenticates and hands the raw request to tus, which streams the body into the
// datastore (local disk or S3): a 4 GB video never sits in memory, and an interrupted upload
// resumes from the offset the datastore already holds, even after a restart.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Server } from '@tus/server';
import type { DataStore, Locker, ServerOptions, Upload } from '@tus/server';
import { AppError } from '../../lib/app-error.ts';

export type { Upload } from '@tus/server';

export interface TusUploadsOptions {
  /** Where bytes go: a FileStore in DATA_DIR, or an S3Store. Shared by every instance of the app. */
  datastore: DataStore;
  /** Mount point, e.g. '/api/uploads' (the plugin's register prefix, if any, is prepended). */
  path: string;
  /** Largest upload accepted, in bytes; larger declared or sent sizes get 413. */
  maxSizeBytes: number;
  /** The signed-in user's id, or null when the request carries no valid session (→ 401). */
  getUserId: (request: FastifyRequest) => Promise<string | null>;
  /**
   * Called once per upload when its last byte is stored, before the client hears 204, so the
   * media row exists when the browser moves on. Throw `{ status_code, body }` (e.g. 415,
   * 'not a video') to refuse the file with that status; any other error answers 500, logged.
   */
  onUploadFinished: (userId: string, upload: Upload) => Promise<void>;
  /**
   * Called when an upload is created, before any byte is stored (e.g. a quota check). Throw
   * `{ status_code, body }` to refuse it.
   */
  onUploadCreate?: (userId: string, upload: Upload) => Promise<void>;
  /** Random part of new upload ids; default 32 hex characters. Must match /^[a-f0-9]{32}$/. */
  randomSuffix?: () => string;
  /**
   * Keeps two requests from working on one upload at once. Default: tus's MemoryLocker, which only
   * sees this process; several processes on shared storage need a shared one (PostgresLocker).
   */
  locker?: Locker;
}

interface RequestContext {
  userId: string | null;
  log: FastifyBaseLogger;
}

type TusRequest = Parameters<NonNullable<ServerOptions['onIncomingRequest']>>[0];

// Upload ids are '<userId>-<32 hex>': the owner is readable from the id alone, so HEAD/PATCH/DELETE
// are authorised without a database round trip, and ids stay safe as file and object names.
const SUFFIX_PATTERN = /^[a-f0-9]{32}$/;
const UPLOAD_ID_PATTERN = /^([A-Za-z0-9_-]{1,128})-([a-f0-9]{32})$/;
const SAFE_USER_ID = /^[A-Za-z0-9_-]{1,128}$/;

/** The upload id for a user's new upload ('<userId>-<32 hex>'). Throws on unsafe ids. */
export function uploadIdFor(userId: string, suffix: string): string {
  // Ids become file names and URL segments: refuse anything that could escape the directory.
  if (!SAFE_USER_ID.test(userId)) throw new TypeError('user id is not usable in an upload id');
  if (!SUFFIX_PATTERN.test(suffix)) throw new TypeError('upload id suffix must be 32 hex chars');
  return `${userId}-${suffix}`;
}

/** The user who owns an upload id, or null when the id was not made by uploadIdFor. */
export function ownerOfUpload(uploadId: string): string | null {
  return UPLOAD_ID_PATTERN.exec(uploadId)?.[1] ?? null;
}

/** What @tus/server answers for a refused request: it reads `status_code` and `body`. */
export class TusHookError extends Error {
  constructor(
    readonly status_code: number,
    readonly body: string,
  ) {
    super(body.trim());
    this.name = 'TusHookError';
  }
}

const defaultSuffix = () => randomBytes(16).toString('hex');

function hasStatusCode(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    'status_code' in error &&
    typeof error.status_code === 'number'
  );
}

/**
 * Fastify plugin serving tus 1.0 (creation, creation-with-upload, creation-defer-length,
 * termination, expiration) at `path` and `path/*`. Register it without fastify-plugin: its
 * body parsers must stay inside this scope. Unauthenticated → 401; another user's upload → 403.
 */
export async function tusUploads(app: FastifyInstance, options: TusUploadsOptions): Promise<void> {
  const contexts = new WeakMap<IncomingMessage | object, RequestContext>();
  const randomSuffix = options.randomSuffix ?? defaultSuffix;
  const mountPath = `${app.prefix}${options.path}`;

  const contextOf = (req: TusRequest): RequestContext => {
    const nodeRequest = req.runtime?.node?.req;
    const context = nodeRequest ? contexts.get(nodeRequest) : undefined;
    // Only reachable if a request got to tus without passing through our route handler.
    if (!context) throw new TusHookError(500, 'Internal Server Error\n');
    return context;
  };

  const requireUser = (req: TusRequest): string => {
    const { userId } = contextOf(req);
    if (userId === null) throw new TusHookError(401, 'Unauthorized\n');
    return userId;
  };

  // A client that vanishes mid-chunk leaves a write still flushing to the datastore; closing the
  // app waits for those, so the next start resumes from a final, consistent offset.
  const pendingWrites = new Set<Promise<number>>();
  const datastore = new Proxy(options.datastore, {
    get(target, property, receiver) {
      if (property !== 'write') return Reflect.get(target, property, receiver) as unknown;
      return (...args: Parameters<DataStore['write']>) => {
        const writing = target.write(...args);
        pendingWrites.add(writing);
        const forget = () => pendingWrites.delete(writing);
        writing.then(forget, forget);
        return writing;
      };
    },
  });
  app.addHook('onClose', async () => {
    await Promise.allSettled([...pendingWrites]);
  });

  const tus = new Server({
    path: mountPath,
    datastore,
    ...(options.locker && { locker: options.locker }),
    maxSize: options.maxSizeBytes,
    // The browser resolves it against the endpoint: correct behind any proxy or host name.
    relativeLocation: true,
    // Same-origin only: the session cookie is the credential, no cross-site uploads.
    allowedOrigins: [],
    namingFunction: (req) => uploadIdFor(requireUser(req), randomSuffix()),
    // tus awaits the hooks inside its own async handlers, so a synchronous throw is a refusal too.
    onIncomingRequest: (req, uploadId) => {
      if (ownerOfUpload(uploadId) !== requireUser(req)) throw new TusHookError(403, 'Forbidden\n');
      return Promise.resolve();
    },
    onUploadCreate: async (req, upload) => {
      await options.onUploadCreate?.(requireUser(req), upload);
      return {};
    },
    onUploadFinish: async (req, upload) => {
      await options.onUploadFinished(requireUser(req), upload);
      return {};
    },
    onResponseError: (req, error) => {
      if (hasStatusCode(error)) return Promise.resolve(undefined);
      // tus would put error.message in the body; internals stay in the log.
      contextOf(req).log.error({ err: error }, 'upload request failed');
      return Promise.resolve({ status_code: 500, body: 'Internal Server Error\n' });
    },
  });

  // Leave every body untouched for tus to stream: no JSON/text parsing, no bodyLimit buffering.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => {
    done(null);
  });

  const handle = async (request: FastifyRequest, reply: FastifyReply) => {
    // CORS preflights never carry cookies, and OPTIONS only describes the server.
    const userId = request.method === 'OPTIONS' ? null : await options.getUserId(request);
    // Before hijacking, so the app's error handler answers it like any other 401.
    if (userId === null && request.method !== 'OPTIONS') throw new AppError('unauthenticated');
    contexts.set(request.raw, { userId, log: request.log });
    reply.hijack();
    const closed = new Promise<void>((resolve) => reply.raw.once('close', () => resolve()));
    const handled = tus.handle(request.raw, reply.raw).catch((error: unknown) => {
      request.log.error({ err: error }, 'tus handler failed');
      if (!reply.raw.headersSent) {
        reply.raw.writeHead(500, { 'Content-Type': 'text/plain' }).end('Internal Server Error\n');
      } else {
        reply.raw.destroy();
      }
    });
    // tus.handle never settles when the client vanished mid-request (it waits to end a response
    // on a dead socket), so the closed connection also counts as done.
    await Promise.race([handled, closed]);
  };

  const methods = ['POST', 'HEAD', 'PATCH', 'OPTIONS', 'DELETE'];
  app.route({ method: methods, url: options.path, handler: handle });
  app.route({ method: methods, url: `${options.path}/*`, handler: handle });
}
