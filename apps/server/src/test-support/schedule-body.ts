import type { CreateScheduleInput } from '@cadence/shared/schemas/schedule';

/**
 * A valid POST /api/schedules body (publish now, public, comments on), for API and browser tests;
 * `overrides` replace whole fields.
 */
export function scheduleBody(
  accountId: string,
  mediaIds: string[],
  overrides: Partial<CreateScheduleInput> = {},
): CreateScheduleInput {
  return {
    accountId,
    mediaIds,
    publishType: 'immediate',
    timeZone: 'Europe/Paris',
    posts: mediaIds.map((mediaId, index) => ({ mediaId, title: `Video ${index + 1} #cadence` })),
    privacyLevel: 'PUBLIC_TO_EVERYONE',
    allowComment: true,
    allowDuet: false,
    allowStitch: false,
    commercialContent: { enabled: false, yourBrand: false, brandedContent: false },
    consent: true,
    ...overrides,
  };
}
