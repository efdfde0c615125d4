import type { FastifyBaseLogger } from 'fastify';
import type { MediaStorage } from '../../storage/media-storage.ts';
import type { MediaRepository } from './repository.ts';

export interface MediaServiceDeps {
  repository: MediaRepository;
  storage: MediaStorage;
  ffmpegPath: string;
  ffprobePath: string;
  userQuotaBytes: number;
  /** An unfinished upload expires this long after its creation or last PATCH. */
  uploadTtlMs: number;
  logger: FastifyBaseLogger;
}
