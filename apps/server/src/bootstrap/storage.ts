import type { Config } from '../config.ts';
import { LocalDiskStorage } from '../storage/local-disk-storage.ts';
import type { MediaStorage } from '../storage/media-storage.ts';

/** Where media files live: the S3 bucket of STORAGE=s3, or DATA_DIR/media on this disk. */
export async function openStorage(config: Config): Promise<MediaStorage> {
  return config.storage.driver === 's3'
    ? // The AWS SDK is large: load it only for deployments that use object storage.
      new (await import('../storage/s3-storage.ts')).S3Storage(config.storage)
    : new LocalDiskStorage(config.storage.rootDir);
}
