import { errorStatus } from '@cadence/shared/errors';
import type { MediaRejectedBody } from '@cadence/shared/schemas/media';
import { uploadMetadataSchema } from '@cadence/shared/schemas/upload';
import type { FastifyInstance } from 'fastify';
import { getSessionUser } from '../../auth/session.ts';
import { isForeignKeyViolation } from '../../db/pg-errors.ts';
import type { Auth } from '../../auth/auth.ts';
import type { DatabaseHandle } from '../../db/client.ts';
import type { MediaStorage } from '../../storage/media-storage.ts';
import { MediaRejectedError, QuotaExceededError, type MediaService } from '../media/service.ts';
import { PostgresLocker } from './postgres-locker.ts';
import { TusHookError, tusUploads } from './tus.ts';

const GONE = new TusHookError(410, 'This upload expired or no longer exists: start a new one\n');

/** A refusal tus sends as is: the JSON body the web client translates (media.rejected.*). */
function rejection(status: number, body: MediaRejectedBody): TusHookError {
  return new TusHookError(status, JSON.stringify(body));
}

const refuse = (error: unknown): never => {
  if (error instanceof QuotaExceededError) {
    throw rejection(413, {
      code: 'media_rejected',
      reasons: error.reasons,
      quotaBytes: error.quotaBytes,
      usedBytes: error.usedBytes,
      message:
        'This upload does not fit in your storage quota (your videos plus unfinished uploads): ' +
        'delete videos or cancel unfinished uploads, then try again',
    });
  }
  if (error instanceof MediaRejectedError) {
    throw rejection(errorStatus.media_rejected, { code: 'media_rejected', reasons: error.reasons });
  }
  // Its owner deleted their account while it finished: nothing is kept (register removed the file).
  if (isForeignKeyViolation(error)) throw GONE;
  throw error;
};

/**
 * Resumable uploads (tus) at /api/uploads. A new upload's metadata is checked and its declared
 * size reserved in the owner's quota before anything is stored; every PATCH keeps it alive (an
 * unfinished upload expires UPLOAD_EXPIRY_HOURS after its last one); a finished upload becomes
 * media or is refused with the reasons.
 */
export interface UploadRoutesDeps {
  database: Pick<DatabaseHandle, 'db' | 'kind' | 'connectionString'>;
  media: MediaService;
  storage: Pick<MediaStorage, 'createTusDatastore'>;
  auth: Auth;
  /** MAX_UPLOAD_BYTES. */
  maxBytes: number;
}

export async function uploadRoutes(app: FastifyInstance, deps: UploadRoutesDeps) {
  // Several API processes may share one PostgreSQL database and one storage: their tus locks must
  // be shared too. PGlite serves a single process, where tus's in-memory lock is enough.
  const { database, media } = deps;
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
    datastore: deps.storage.createTusDatastore(),
    ...(locker && { locker }),
    path: '/api/uploads',
    maxSizeBytes: deps.maxBytes,
    // The page names the limit from the server's answer: it may not have loaded it yet itself.
    maxSizeExceeded: rejection(413, {
      code: 'media_rejected',
      reasons: ['file_too_big'],
      maxBytes: deps.maxBytes,
      message: `This file is larger than this server accepts (MAX_UPLOAD_BYTES, ${deps.maxBytes} bytes)`,
    }),
    getUserId: async (request) => (await getSessionUser(deps.auth, request))?.id ?? null,
    onUploadCreate: async (userId, upload) => {
      const parsed = uploadMetadataSchema.safeParse(upload.metadata ?? {});
      if (!parsed.success) {
        const badName = parsed.error.issues.some(
          (issue) => issue.path[0] === 'filename' || issue.path[0] === 'name',
        );
        throw rejection(400, {
          code: 'media_rejected',
          reasons: [badName ? 'invalid_file_name' : 'invalid_upload'],
          message: `Invalid Upload-Metadata: ${parsed.error.issues
            .map((issue) => `${issue.path.join('.') || 'metadata'}: ${issue.message}`)
            .join('; ')}`,
        });
      }
      // tus refuses a creation without Upload-Length (deferred lengths are refused earlier).
      await media.reserveUpload(userId, upload.id, upload.size ?? 0).catch(refuse);
      // Stored as parsed: the names the rest of the app reads, nothing else.
      return { ...parsed.data };
    },
    onUploadWrite: async (_userId, uploadId, write) => {
      const reservedBytes = await media.keepUploadAlive(uploadId);
      if (reservedBytes === null) throw GONE;
      // tus checks the same against the stored length; this one is the quota's own guarantee.
      if (write.offset + (write.length ?? 0) > reservedBytes) {
        throw new TusHookError(
          413,
          'Upload-Offset plus the body exceed the declared Upload-Length\n',
        );
      }
    },
    onUploadProbe: async (_userId, uploadId) => {
      if (!(await media.isUploadAlive(uploadId))) throw GONE;
    },
    onUploadTerminated: (uploadId) => media.releaseUpload(uploadId),
    onUploadFinished: async (userId, upload) => {
      // Stored as parsed by onUploadCreate above (defaults only for uploads older than that).
      const parsed = uploadMetadataSchema.safeParse(upload.metadata ?? {});
      const metadata = parsed.success
        ? parsed.data
        : { filename: 'video', purpose: 'post' as const };
      await media
        .acceptUpload(userId, {
          id: upload.id,
          originalName: metadata.filename,
          purpose: metadata.purpose,
          sizeBytes: upload.size ?? upload.offset,
        })
        .catch(refuse);
    },
  });
}
