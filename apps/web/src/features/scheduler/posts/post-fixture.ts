import type { Post } from '@cadence/shared/schemas/schedule';

/** A pending, private post on @lea due at `dueAt`, for tests; `patch` changes any field. */
export function testPost(id: string, dueAt: string, patch: Partial<Post> = {}): Post {
  return {
    id,
    scheduleId: 'schedule-1',
    accountId: '11111111-1111-4111-8111-111111111111',
    accountUsername: 'lea',
    mediaId: `media-${id}`,
    thumbnailUrl: null,
    title: `Caption ${id}`,
    dueAt,
    randomized: false,
    jitterMinutes: 0,
    status: 'pending',
    failReason: null,
    tiktokPostId: null,
    tiktokPostUrl: null,
    createdAt: '2026-03-01T10:00:00.000Z',
    timeZone: 'Europe/Paris',
    privacyLevel: 'SELF_ONLY',
    allowComment: false,
    allowDuet: false,
    allowStitch: false,
    note: null,
    postponedFrom: null,
    outcomeAt: null,
    delivery: 'direct',
    ...patch,
  };
}
