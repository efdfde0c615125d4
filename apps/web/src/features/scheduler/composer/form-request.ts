import type { DraftBody, SchedulePreviewBody } from '@cadence/shared/schemas/planning';
import { createScheduleSchema } from '@cadence/shared/schemas/schedule';
import { capIntervalCount, type ScheduleFormState } from './form-state.ts';

export interface SelectedVideo {
  key: string;
  mediaId: string | null;
}

function readyVideos(videos: readonly SelectedVideo[]) {
  return videos.flatMap((video) => (video.mediaId ? [{ ...video, mediaId: video.mediaId }] : []));
}

/** The videos (those uploaded), their captions and the interactions: a schedule's and a draft's. */
function formContent(state: ScheduleFormState, videos: readonly SelectedVideo[]) {
  const ready = readyVideos(videos);
  return {
    mediaIds: ready.map((video) => video.mediaId),
    posts: ready.map((video) => {
      const cover = state.covers[video.key];
      return {
        mediaId: video.mediaId,
        title: state.captions[video.key] ?? '',
        ...(cover !== undefined && { coverTimestampMs: cover }),
      };
    }),
    allowComment: state.allowComment,
    allowDuet: state.allowDuet,
    allowStitch: state.allowStitch,
    commercialContent: state.commercialContent,
    isAigc: state.isAigc,
    delivery: state.delivery,
  };
}

/**
 * The body the form stands for, not yet validated: POST /api/schedules', or for 'queue' POST
 * /api/schedules/queue's (the same content; `publishType` tells which, and the queue schema drops
 * it). `draftId`: the draft the form was opened from, deleted with the schedule's creation.
 */
export function buildScheduleRequest(
  state: ScheduleFormState,
  videos: readonly SelectedVideo[],
  timeZone: string,
  draftId: string | null = null,
): unknown {
  const content = formContent(state, videos);
  return {
    accountId: state.accountId,
    mediaIds: content.mediaIds,
    publishType: state.publishType,
    timeZone,
    // An emptied date or time field is a missing one ('errors.dateRequired'), not a malformed one.
    ...(state.publishType === 'scheduled' && {
      date: state.date === '' ? undefined : state.date,
      time: state.time === '' ? undefined : state.time,
    }),
    ...(state.publishType === 'spaced' && {
      spacedInterval: {
        ...state.interval,
        count: capIntervalCount(state.interval.count, content.mediaIds.length),
      },
    }),
    posts: content.posts,
    // Unset: the schema reports 'errors.selectPrivacy', except for an inbox draft, which has none
    // (nor interactions, nor labels): the creator sets them in the TikTok app, and the form
    // hides them.
    privacyLevel:
      state.delivery === 'inbox' || state.privacyLevel === '' ? undefined : state.privacyLevel,
    allowComment: state.delivery !== 'inbox' && content.allowComment,
    allowDuet: state.delivery !== 'inbox' && content.allowDuet,
    allowStitch: state.delivery !== 'inbox' && content.allowStitch,
    commercialContent:
      state.delivery === 'inbox'
        ? { enabled: false, yourBrand: false, brandedContent: false }
        : content.commercialContent,
    isAigc: state.delivery !== 'inbox' && content.isAigc,
    delivery: content.delivery,
    consent: state.consent,
    ...(state.postponeOverCap && state.publishType !== 'queue' && { overCap: 'postpone' }),
    ...(draftId !== null && state.publishType !== 'queue' && { draftId }),
  };
}

/**
 * POST /api/schedules/preview's body for the form's timing, or null when there is nothing to
 * preview yet (no account, no ready video, a timing the preview has no slots for, a field the
 * person is still typing). The preview answers with the very slots the schedule would get.
 */
export function buildPreviewRequest(
  state: ScheduleFormState,
  videos: readonly SelectedVideo[],
  timeZone: string,
): SchedulePreviewBody | null {
  if (state.publishType !== 'scheduled' && state.publishType !== 'spaced') return null;
  const ready = readyVideos(videos);
  if (state.accountId === '' || ready.length === 0) return null;
  const request = buildScheduleRequest(state, ready, timeZone);
  const parsed = createScheduleSchema.safeParse({
    ...(request as object),
    // Only the timing matters here: the content's own rules are the submit's business.
    privacyLevel: 'SELF_ONLY',
    consent: true,
    commercialContent: { enabled: false, yourBrand: false, brandedContent: false },
    posts: ready.map((video) => ({ mediaId: video.mediaId, title: '' })),
  });
  if (!parsed.success) return null;
  const { accountId, mediaIds, publishType, date, time, spacedInterval } = parsed.data;
  return {
    accountId,
    mediaIds,
    publishType,
    timeZone,
    ...(date !== undefined && { date }),
    ...(time !== undefined && { time }),
    ...(spacedInterval !== undefined && { spacedInterval }),
  };
}

/** POST/PUT /api/drafts' body: whatever the form holds, unfinished parts included, no time. */
export function buildDraftBody(state: ScheduleFormState, videos: readonly SelectedVideo[]) {
  return {
    accountId: state.accountId === '' ? null : state.accountId,
    ...formContent(state, videos),
    privacyLevel: state.privacyLevel === '' ? null : state.privacyLevel,
  } satisfies DraftBody;
}
