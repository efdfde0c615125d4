import type { DataExport } from '@cadence/shared/schemas/user';
import type { Logger } from 'pino';
import { giveUpOrphans } from '../../jobs/orphans.ts';
import { AppError } from '../../lib/app-error.ts';
import type { MediaStorage } from '../../storage/media-storage.ts';
import type { MailService } from '../mail/service.ts';
import type { UserRepository } from '../users/repository.ts';
import { createExportBuildJob, dataExportKey } from './export-build.ts';
import type { DataExportRepository, DataExportRow } from './export-repository.ts';

export interface DataExportServiceDeps {
  repository: DataExportRepository;
  storage: Pick<MediaStorage, 'put' | 'createReadStream' | 'stat' | 'delete'>;
  users: Pick<UserRepository, 'findById'>;
  mail: Pick<MailService, 'queue'>;
  /** Queues the data-export.build job of a new export (export-jobs.ts). */
  enqueue: (exportId: string) => Promise<void>;
  publicUrl: string;
  logger: Logger;
  now?: () => Date;
}

function toView(row: DataExportRow): DataExport {
  const size = row.size_bytes === null ? null : Number(row.size_bytes);
  return {
    id: row.id,
    status: row.status,
    progress: row.progress,
    sizeBytes: size,
    createdAt: row.created_at.toISOString(),
    readyAt: row.ready_at?.toISOString() ?? null,
    expiresAt: row.expires_at?.toISOString() ?? null,
    downloadUrl: row.status === 'ready' ? `/api/me/export/${row.id}/download` : null,
  };
}

/**
 * 'Télécharger mes données': a ZIP of JSON (one file per kind of data) and the person's media,
 * written by a job straight into storage (local disk or S3) as a stream: JSON rows are in memory
 * one table at a time, media files pass through in chunks, the archive is never held whole.
 */
export function createDataExportService(deps: DataExportServiceDeps) {
  const { repository, storage, enqueue } = deps;
  const now = deps.now ?? (() => new Date());
  const build = createExportBuildJob({ ...deps, now });

  /**
   * The job gave up: the page says so and the person can ask again. An archive an earlier
   * attempt wrote (and could not mark ready) goes too: nothing would ever link to it. An export
   * that had moved on (ready, expired) keeps what it has.
   */
  async function giveUp(exportId: string, error: unknown): Promise<void> {
    const userId = await repository.markFailed(
      exportId,
      error instanceof Error ? error.message : String(error),
    );
    if (userId !== undefined) await storage.delete(dataExportKey(userId, exportId));
  }

  return {
    /** Asks for a new archive; a 409 while one is being prepared (one at a time). */
    async request(userId: string): Promise<DataExport> {
      const row = await repository.create(userId);
      if (!row) {
        throw new AppError('conflict', 'An export is already being prepared', {
          _: 'settings.errors.exportInProgress',
        });
      }
      try {
        await enqueue(row.id);
      } catch (error) {
        // Without its job the export would hold the one-at-a-time slot: the person can ask again.
        await repository.markFailed(row.id, 'not queued').catch(() => undefined);
        throw error;
      }
      return toView(row);
    },

    /** My latest export, or null. */
    async current(userId: string): Promise<DataExport | null> {
      const row = await repository.latest(userId);
      return row ? toView(row) : null;
    },

    /**
     * The ready archive of its owner, as a stream. Anyone else's id, or an archive that is not
     * ready (or expired), is the same 404: nothing says whose it is or that it exists.
     */
    async open(userId: string, exportId: string) {
      const row = await repository.find(exportId);
      if (!row || row.user_id !== userId || row.status !== 'ready' || !row.storage_key) {
        throw new AppError('not_found', 'No such export', { _: 'settings.errors.exportNotFound' });
      }
      const stream = await storage.createReadStream(row.storage_key);
      return {
        stream,
        size: Number(row.size_bytes),
        fileName: `cadence-data-${row.created_at.toISOString().slice(0, 10)}.zip`,
      };
    },

    /** The data-export.build job: writes the archive, marks it ready, mails the link. */
    build,

    giveUp,

    /**
     * data-export.purge: pending or running exports that no job will finish any more (see
     * `orphaned`) fail like a give-up, so the page says so and the person can ask again; returns
     * how many. A grace period covers the moment between a request's insert and its job.
     */
    failOrphaned(queue: string): Promise<number> {
      return giveUpOrphans(
        (createdBefore) => repository.orphaned(createdBefore, queue),
        giveUp,
        now(),
      );
    },

    /** data-export.purge: expired archives are deleted from storage; returns how many. */
    async purgeExpired(): Promise<number> {
      const expired = await repository.expired(now());
      for (const row of expired) {
        if (row.storage_key) await storage.delete(row.storage_key);
        await repository.markExpired(row.id);
      }
      return expired.length;
    },
  };
}

export type DataExportService = ReturnType<typeof createDataExportService>;
