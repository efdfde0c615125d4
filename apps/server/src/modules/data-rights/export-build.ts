import { dataExportReadyMail } from '../../mail/templates.ts';
import { writeDataArchive } from './archive.ts';
import type { DataExportRow } from './export-repository.ts';
import type { DataExportServiceDeps } from './export-service.ts';

/** How long a ready archive can be downloaded before data-export.purge deletes it. */
export const DATA_EXPORT_RETENTION_DAYS = 7;

/** Progress is written at most this often while files are added (one UPDATE per step). */
const PROGRESS_STEP = 5;

export function dataExportKey(userId: string, exportId: string): string {
  return `users/${userId}/exports/${exportId}.zip`;
}

export type ExportBuildDeps = Pick<
  DataExportServiceDeps,
  'repository' | 'storage' | 'users' | 'mail' | 'publicUrl' | 'logger'
> & { now: () => Date };

/** The data-export.build job's work: the archive streamed into storage, then the mail. */
export function createExportBuildJob(deps: ExportBuildDeps) {
  const { repository, storage, users, mail, publicUrl, logger, now } = deps;

  /** Streams the archive of `row` into storage; resolves with its key and size. */
  async function writeArchive(row: DataExportRow): Promise<{ key: string; size: number }> {
    const key = dataExportKey(row.user_id, row.id);
    let reported = 0;
    const { size } = await writeDataArchive({
      storage,
      key,
      sections: await repository.sections(row.user_id),
      files: await repository.files(row.user_id),
      mtime: now(),
      onProgress: (progress) => {
        if (progress - reported < PROGRESS_STEP) return;
        reported = progress;
        repository.setProgress(row.id, progress).catch((error: unknown) => {
          logger.warn({ err: error, exportId: row.id }, 'export progress not saved');
        });
      },
    });
    return { key, size };
  }

  async function mailReady(row: DataExportRow, expiresAt: Date): Promise<void> {
    const user = await users.findById(row.user_id);
    if (!user) return;
    await mail.queue({
      kind: 'data-export',
      userId: user.id,
      to: user.email,
      language: user.preferredLanguage,
      content: dataExportReadyMail(user.preferredLanguage, {
        name: user.name,
        link: `${publicUrl}/settings#data-export`,
        expiresAt,
        timeZone: user.timeZone ?? 'UTC',
      }),
    });
  }

  /** The data-export.build job: writes the archive, marks it ready, mails the link. */
  return async function build(exportId: string): Promise<void> {
    const row = await repository.claim(exportId);
    if (!row) return;
    const { key, size } = await writeArchive(row);
    const expiresAt = new Date(now().getTime() + DATA_EXPORT_RETENTION_DAYS * 86_400_000);
    if (!(await repository.markReady(row.id, { storageKey: key, sizeBytes: size, expiresAt }))) {
      // The person deleted their account (or the row went) meanwhile: nothing to keep.
      await storage.delete(key);
      return;
    }
    // A new archive replaces the older ones at once.
    for (const old of await repository.olderReady(row.user_id, row.id)) {
      if (old.storage_key) await storage.delete(old.storage_key);
      await repository.markExpired(old.id);
    }
    logger.info({ exportId, userId: row.user_id, bytes: size }, 'data export ready');
    await mailReady(row, expiresAt);
  };
}
