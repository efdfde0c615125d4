import type { MediaRejectionReason } from '@cadence/shared/schemas/media';

/** A file refused by the checks: the reasons are translated by the browser. */
export class MediaRejectedError extends Error {
  override name = 'MediaRejectedError';
  constructor(readonly reasons: MediaRejectionReason[]) {
    super(`Media rejected: ${reasons.join(', ')}`);
  }
}

/** A new upload that would not fit in its owner's quota: says the quota and what is taken. */
export class QuotaExceededError extends MediaRejectedError {
  override name = 'QuotaExceededError';
  constructor(
    readonly quotaBytes: number,
    readonly usedBytes: number,
  ) {
    super(['quota_exceeded']);
  }
}
