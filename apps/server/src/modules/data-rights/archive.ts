import { PassThrough, Readable } from 'node:stream';
import { ZipFile } from 'yazl';
import type { MediaStorage } from '../../storage/media-storage.ts';
import type { ExportSection } from './export-archive-queries.ts';

/** BigInt (int8 from some drivers) as a string: JSON has no such number. */
function jsonValue(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value;
}

const README = `Cadence — your data / vos données

profile.json          your account / votre compte
accounts.json         connected TikTok accounts (without tokens) / comptes TikTok (sans jetons)
posting-slots.json    posting times per account / créneaux de publication
media.json, media/    your videos and thumbnails / vos vidéos et miniatures
schedules.json, posts.json, drafts.json, draft-videos.json
stories.json, meme-analyses.json
notifications.json, settings.json, sessions.json
analytics/            synced TikTok statistics and their history / statistiques et historique
`;

export interface DataArchiveInput {
  storage: Pick<MediaStorage, 'put' | 'createReadStream' | 'stat'>;
  /** Where the ZIP goes. */
  key: string;
  sections: ExportSection[];
  /** Stored files and their names in the archive. */
  files: { key: string; name: string }[];
  mtime: Date;
  /** 0–99 as files are reached (called often: the caller throttles). */
  onProgress?: (progress: number) => void;
}

/**
 * Writes the ZIP of a person's data into storage as a stream: JSON files from rows already read
 * (one table at a time), then each media file straight from storage, stored uncompressed (video
 * does not deflate). Files are opened one at a time, when yazl reaches them, and their bytes go
 * through with the output's backpressure, so memory stays flat whatever the videos weigh (local
 * disk and S3 alike, see bench/data-export-memory.ts). A file gone meanwhile is left out.
 */
export async function writeDataArchive({
  storage,
  key,
  sections,
  files,
  mtime,
  onProgress,
}: DataArchiveInput): Promise<{ size: number }> {
  const present: { key: string; name: string; size: number }[] = [];
  for (const file of files) {
    const stat = await storage.stat(file.key);
    if (stat) present.push({ ...file, size: stat.size });
  }
  const zip = new ZipFile();
  // yazl's output is typed as a bare NodeJS stream; a PassThrough is a Readable that storage
  // takes and that an error can end.
  const archive = new PassThrough();
  zip.outputStream.pipe(archive);
  const fail = (error: unknown) =>
    archive.destroy(error instanceof Error ? error : new Error(String(error)));
  zip.on('error', fail);
  zip.addBuffer(Buffer.from(README), 'README.txt', { mtime });
  for (const section of sections) {
    zip.addBuffer(Buffer.from(JSON.stringify(section.rows, jsonValue, 2)), section.file, {
      mtime,
    });
  }
  present.forEach((file, index) => {
    zip.addReadStreamLazy(file.name, { mtime, size: file.size, compress: false }, (callback) => {
      onProgress?.(Math.floor((index / present.length) * 100));
      storage.createReadStream(file.key).then(
        (stream) => {
          // yazl pipes the stream without listening to its errors: they end the archive.
          stream.on('error', fail);
          callback(null, stream);
        },
        // The error ends the archive (zip 'error' → fail); the empty stream is never read.
        (error: unknown) => callback(error, Readable.from([])),
      );
    });
  });
  zip.end();
  return storage.put(key, archive, { contentType: 'application/zip' });
}
