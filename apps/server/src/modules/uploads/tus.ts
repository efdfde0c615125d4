// Resumable video uploads: the tus protocol (@tus/server) mounted inside Fastify, per user.
// Fastify only authenticates and hands the raw request to tus, which streams the body into the
// datastore (local disk or S3): a 4 GB video never sits in memory, and an interrupted upload
// resumes from the offset the datastore already holds, even after a restart.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ERRORS, Server } from '@tus/server';
import type { DataStore, Locker, ServerOptions, Upload } from '@tus/server';
import { AppError } from '../../lib/app-error.ts';
import { TusHookError } from '../../lib/tus-error.ts';
import { whenClosed } from '../../lib/when-closed.ts';

export { TusHookError };

export type { Upload } from '@tus/server';

export interface TusUploadsOptions {
  /** Where bytes go: a FileStore in DATA_DIR, or an S3Store. Shared by every instance of the app. */
  datastore: DataStore;
  /** Mount point, e.g. '/api/uploads' (the plugin's register prefix, if any, is prepended). */
  path: string;
  /** Largest upload accepted, in bytes; larger declared or sent sizes get 413. */
  maxSizeBytes: number;
  /**
   * The answer to an upload declared larger than maxSizeBytes (default: tus's own 413, in plain
   * text), e.g. a body that says the limit.
   */
  maxSizeExceeded?: { status_code: number; body: string };
  /** The signed-in user's id, or null when the request carries no valid session (→ 401). */
  getUserId: (request: FastifyRequest) => Promise<string | null>;
  /**
   * Called once per upload when its last byte is stored, before the client hears 204, so the
   * media row exists when the browser moves on. Throw `{ status_code, body }` (e.g. 415,
   * 'not a video') to refuse the file with that status; any other error answers 500, logged.
   */
  onUploadFinished: (userId: string, upload: Upload) => Promise<void>;
  /**
   * Called when an upload is created, before any byte is stored (metadata checks, the quota).
   * Throw `{ status_code, body }` to refuse it; the metadata it returns is what gets stored.
   */
  onUploadCreate?: (userId: string, upload: Upload) => Promise<Upload['metadata'] | void>;
  /**
   * Called before a PATCH takes the upload's lock, with the offset and the body's announced length
   * (null when chunked): e.g. to keep the upload alive. Throw `{ status_code, body }` to refuse.
   */
  onUploadWrite?: (
    userId: string,
    uploadId: string,
    write: { offset: number; length: number | null },
  ) => Promise<void>;
  /** Called before a HEAD reports an upload's offset. Throw `{ status_code, body }` to refuse. */
  onUploadProbe?: (userId: string, uploadId: string) => Promise<void>;
  /** Called once the owner terminated an upload (DELETE) and its bytes are gone. */
  onUploadTerminated?: (uploadId: string) => Promise<void>;
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

const defaultSuffix = () => randomBytes(16).toString('hex');

/**
 * tus extensions this server does not offer although the datastores could: a deferred length
 * would let an upload grow past the space reserved for it at creation (the quota is reserved from
 * Upload-Length), and concatenation is not implemented by @tus/server.
 */
const REFUSED_EXTENSIONS = new Set(['creation-defer-length', 'concatenation', 'concatentation']);

/** Header mistakes tus would only catch late (or with a 501), answered 400 before tus runs. */
function protocolProblem(request: FastifyRequest): string | null {
  const headers = request.headers;
  if (headers['upload-concat'] !== undefined) {
    return 'Upload-Concat is not supported (no tus concatenation): send each file as one upload, without parallel uploads';
  }
  if (headers['upload-defer-length'] !== undefined) {
    return 'Upload-Defer-Length is not supported: declare the size with Upload-Length when creating the upload';
  }
  if (request.method === 'PATCH' && headers['upload-length'] !== undefined) {
    return 'Upload-Length belongs to the creation request (POST), not to PATCH';
  }
  return null;
}

const offsetHeader = (value: string | null): number =>
  value !== null && /^\d{1,16}$/.test(value) ? Number(value) : 0;

const lengthHeader = (value: string | null): number | null =>
  value !== null && /^\d{1,16}$/.test(value) ? Number(value) : null;

/**
 * What the client hears instead of tus's answer: tus errors that a client's own request causes
 * but that tus answers with a 5xx, i.e. waiting too long for an upload's lock (another request of
 * the client still writes it: 423, which clients retry) and the extensions we do not offer
 * (501 → 400); and, when the options give one, the answer to a file declared over the size limit.
 * Everything else keeps tus's answer.
 */
function clientFacingStatus(
  error: { status_code: number; body: string },
  options: Pick<TusUploadsOptions, 'maxSizeExceeded'>,
) {
  if (error.body === ERRORS.ERR_MAX_SIZE_EXCEEDED.body && options.maxSizeExceeded) {
    return options.maxSizeExceeded;
  }
  if (error.body === ERRORS.ERR_LOCK_TIMEOUT.body) {
    return {
      status_code: 423,
      body: 'Another request is still working on this upload: retry in a moment\n',
    };
  }
  if (error.status_code === 501) return { status_code: 400, body: error.body };
  return null;
}

function hasStatusCode(error: unknown): error is { status_code: number; body: string } {
  return (
    typeof error === 'object' &&
    error !== null &&
    'status_code' in error &&
    typeof error.status_code === 'number' &&
    'body' in error &&
    typeof error.body === 'string'
  );
}

type RequestContexts = WeakMap<IncomingMessage | object, RequestContext>;

/** What the route handler learnt of a request tus is handling (its user, its logger). */
function contextOf(contexts: RequestContexts, req: TusRequest): RequestContext {
  const nodeRequest = req.runtime?.node?.req;
  const context = nodeRequest ? contexts.get(nodeRequest) : undefined;
  // Only reachable if a request got to tus without passing through our route handler.
  if (!context) throw new TusHookError(500, 'Internal Server Error\n');
  return context;
}

function requireUser(contexts: RequestContexts, req: TusRequest): string {
  const { userId } = contextOf(contexts, req);
  if (userId === null) throw new TusHookError(401, 'Unauthorized\n');
  return userId;
}

/**
 * The datastore as tus sees it: without the extensions we refuse, telling onUploadTerminated of
 * each removal, and holding the writes still flushing in `pendingWrites`.
 */
function guardedDatastore(
  options: Pick<TusUploadsOptions, 'datastore' | 'onUploadTerminated'>,
  pendingWrites: Set<Promise<number>>,
): DataStore {
  return new Proxy(options.datastore, {
    get(target, property, receiver) {
      if (property === 'extensions') {
        // What OPTIONS advertises (Tus-Extension) and what tus's handlers accept.
        return target.extensions.filter((extension) => !REFUSED_EXTENSIONS.has(extension));
      }
      if (property === 'remove') {
        // tus removes an upload only when its owner terminates it (DELETE).
        return async (uploadId: string) => {
          await target.remove(uploadId);
          await options.onUploadTerminated?.(uploadId);
        };
      }
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
}

// tus compares Upload-Offset with the stored offset only after onIncomingRequest, so a hook's
// own refusal (e.g. the quota's 413 for offset + body > declared length) would answer a resume
// from a stale offset instead of the protocol's 409 Conflict, which tells the client to HEAD and
// resume. Same comparison as tus's (parseInt); tus repeats it under the upload's lock. An upload
// the datastore no longer has is left to the hooks and tus (410/404).
async function refuseWrongOffset(datastore: DataStore, req: TusRequest, uploadId: string) {
  const stored = await datastore.getUpload(uploadId).catch(() => null);
  const sent = Number.parseInt(req.headers.get('upload-offset') ?? '', 10);
  if (stored !== null && stored.offset !== sent) {
    throw new TusHookError(ERRORS.INVALID_OFFSET.status_code, ERRORS.INVALID_OFFSET.body);
  }
}

/** tus's server at `mountPath`, its hooks calling the options' with the request's user. */
function createTusServer(
  options: TusUploadsOptions,
  mountPath: string,
  datastore: DataStore,
  contexts: RequestContexts,
): Server {
  const randomSuffix = options.randomSuffix ?? defaultSuffix;
  const userOf = (req: TusRequest) => requireUser(contexts, req);
  return new Server({
    path: mountPath,
    datastore,
    ...(options.locker && { locker: options.locker }),
    maxSize: options.maxSizeBytes,
    // The browser resolves it against the endpoint: correct behind any proxy or host name.
    relativeLocation: true,
    // Same-origin only: the session cookie is the credential, no cross-site uploads.
    allowedOrigins: [],
    namingFunction: (req) => uploadIdFor(userOf(req), randomSuffix()),
    // tus awaits the hooks inside its own async handlers, so a synchronous throw is a refusal too.
    onIncomingRequest: async (req, uploadId) => {
      const userId = userOf(req);
      if (ownerOfUpload(uploadId) !== userId) throw new TusHookError(403, 'Forbidden\n');
      if (req.method === 'PATCH') {
        await refuseWrongOffset(options.datastore, req, uploadId);
        await options.onUploadWrite?.(userId, uploadId, {
          offset: offsetHeader(req.headers.get('upload-offset')),
          length: lengthHeader(req.headers.get('content-length')),
        });
      } else if (req.method === 'HEAD') {
        await options.onUploadProbe?.(userId, uploadId);
      }
    },
    onUploadCreate: async (req, upload) => {
      const metadata = await options.onUploadCreate?.(userOf(req), upload);
      return metadata ? { metadata } : {};
    },
    onUploadFinish: async (req, upload) => {
      await options.onUploadFinished(userOf(req), upload);
      return {};
    },
    onResponseError: (req, error) => {
      if (hasStatusCode(error)) {
        return Promise.resolve(clientFacingStatus(error, options) ?? undefined);
      }
      // tus would put error.message in the body; internals stay in the log.
      contextOf(contexts, req).log.error({ err: error }, 'upload request failed');
      return Promise.resolve({ status_code: 500, body: 'Internal Server Error\n' });
    },
  });
}

/** The route handler: authenticates, refuses protocol mistakes, then hands the request to tus. */
function tusRequestHandler(
  options: Pick<TusUploadsOptions, 'getUserId'>,
  contexts: RequestContexts,
  tus: Server,
) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    // CORS preflights never carry cookies, and OPTIONS only describes the server.
    const userId = request.method === 'OPTIONS' ? null : await options.getUserId(request);
    // Before hijacking, so the app's error handler answers it like any other 401.
    if (userId === null && request.method !== 'OPTIONS') throw new AppError('unauthenticated');
    const problem = request.method === 'OPTIONS' ? null : protocolProblem(request);
    if (problem) {
      throw new AppError('validation_failed', problem, { _: 'media.rejected.invalid_upload' });
    }
    contexts.set(request.raw, { userId, log: request.log });
    reply.hijack();
    const closed = new Promise<void>((resolve) => whenClosed(reply.raw, resolve));
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
}

/**
 * Fastify plugin serving tus 1.0 (creation, creation-with-upload, termination) at `path` and
 * `path/*`. Register it without fastify-plugin: its body parsers must stay inside this scope.
 * Unauthenticated → 401; another user's upload → 403; Upload-Defer-Length and Upload-Concat → 400.
 */
export async function tusUploads(app: FastifyInstance, options: TusUploadsOptions): Promise<void> {
  const contexts: RequestContexts = new WeakMap();
  // A client that vanishes mid-chunk leaves a write still flushing to the datastore; closing the
  // app waits for those, so the next start resumes from a final, consistent offset.
  const pendingWrites = new Set<Promise<number>>();
  const datastore = guardedDatastore(options, pendingWrites);
  app.addHook('onClose', async () => {
    await Promise.allSettled([...pendingWrites]);
  });
  const tus = createTusServer(options, `${app.prefix}${options.path}`, datastore, contexts);

  // Leave every body untouched for tus to stream: no JSON/text parsing, no bodyLimit buffering.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => {
    done(null);
  });

  const handle = tusRequestHandler(options, contexts, tus);
  const methods = ['POST', 'HEAD', 'PATCH', 'OPTIONS', 'DELETE'];
  app.route({ method: methods, url: options.path, handler: handle });
  app.route({ method: methods, url: `${options.path}/*`, handler: handle });
}
