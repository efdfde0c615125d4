import type { Lease } from '../db/lease.ts';
import type { MediaService } from '../modules/media/service.ts';

type Renewing = { renewLease(id: string, lease: Lease): Promise<boolean> };

/**
 * `repository` with every lease renewal answered only after `delayMs`: a database too slow to
 * confirm any renewal within a shorter lease (a starved machine), though the lease stays the
 * worker's. The renewal still lands in the end; `firstAnswered` resolves once the first one has.
 */
export function slowRenewals<TRepository extends Renewing>(
  repository: TRepository,
  delayMs: number,
): { repository: TRepository; firstAnswered: Promise<void> } {
  let answered!: () => void;
  const firstAnswered = new Promise<void>((resolve) => (answered = resolve));
  return {
    repository: {
      ...repository,
      renewLease: async (id: string, lease: Lease) => {
        await new Promise((resolve) => setTimeout(resolve, delayMs));
        try {
          return await repository.renewLease(id, lease);
        } finally {
          answered();
        }
      },
    },
    firstAnswered,
  };
}

/** `slowRenewals`' repository alone. */
export function withSlowRenewals<TRepository extends Renewing>(
  repository: TRepository,
  delayMs: number,
): TRepository {
  return slowRenewals(repository, delayMs).repository;
}

/**
 * `media` whose local files are handed out only once `ready` resolves: work that starts after a
 * lease is known lost, whatever the machine's speed.
 */
export function mediaAfter(media: MediaService, ready: Promise<void>): MediaService {
  return {
    ...media,
    withLocalFile: async (source, fn) => {
      await ready;
      return media.withLocalFile(source, fn);
    },
  };
}
