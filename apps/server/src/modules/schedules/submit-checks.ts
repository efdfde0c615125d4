// What a new schedule is checked against at submit, as TikTok requires: the account may post this
// way, the privacy level is one TikTok offers, and every video meets TikTok's limits.
import type { CreatorOptions } from '@cadence/shared/schemas/account';
import type { CreateScheduleRequest } from '@cadence/shared/schemas/schedule';
import { AppError } from '../../lib/app-error.ts';
import { validateForTikTok } from '../../media/probe.ts';
import { exceedsDurationLimit } from '../../tiktok/tiktok-publish-api.ts';
import type { MediaService } from '../media/service.ts';
import { scheduleServiceErrorKeys as keys } from './error-keys.ts';
import type { AccountRow, ScheduleServiceDeps } from './service-context.ts';

type Video = Awaited<ReturnType<MediaService['findMany']>>[number];

/**
 * An app TikTok has not audited may post only SELF_ONLY, to private accounts (creator_info
 * offers PUBLIC_TO_EVERYONE only to public ones): refused here rather than at publish time.
 */
export function checkUnaudited(
  appAudited: boolean,
  privacyLevel: string | null,
  creator: Pick<CreatorOptions, 'privacyLevelOptions'> | null,
): void {
  if (appAudited) return;
  if (privacyLevel !== 'SELF_ONLY') {
    throw new AppError('validation_failed', 'Unaudited apps post only SELF_ONLY', {
      privacyLevel: keys.unauditedSelfOnly,
    });
  }
  if (creator?.privacyLevelOptions.includes('PUBLIC_TO_EVERYONE') === true) {
    throw new AppError('conflict', 'Unaudited apps post only to private accounts', {
      accountId: keys.unauditedPublicAccount,
    });
  }
}

/** The schedule's account: the user's, connected, with the scope its delivery needs. */
export async function requirePublishingAccount(
  accounts: ScheduleServiceDeps['accounts'],
  userId: string,
  content: Pick<CreateScheduleRequest, 'accountId' | 'delivery'>,
): Promise<AccountRow> {
  const account = await accounts.findForUser(userId, content.accountId);
  if (!account) {
    throw new AppError('conflict', 'No such TikTok account', {
      accountId: 'errors.selectTikTokAccount',
    });
  }
  // Publishing needs video.publish; an inbox draft needs video.upload.
  const scope = content.delivery === 'inbox' ? 'video.upload' : 'video.publish';
  if (account.status !== 'connected' || !account.scopes.includes(scope)) {
    throw new AppError('conflict', 'The account cannot publish', {
      accountId: keys.accountNotConnected,
    });
  }
  return account;
}

/** The schedule's videos, every one of them the user's. */
export async function requireVideos(
  media: MediaService,
  userId: string,
  mediaIds: readonly string[],
): Promise<Video[]> {
  const videos = await media.findMany(userId, mediaIds);
  if (videos.length !== new Set(mediaIds).size) {
    throw new AppError('validation_failed', 'Unknown video', {
      mediaIds: 'errors.invalidVideo',
    });
  }
  return videos;
}

/** The privacy level the posts get: one TikTok offers the creator (none for an inbox draft). */
export function submittedPrivacy(
  appAudited: boolean,
  content: Pick<CreateScheduleRequest, 'delivery' | 'privacyLevel'>,
  creator: CreatorOptions | null,
): string | null {
  // An inbox draft carries no privacy: the creator sets it in the TikTok app.
  const privacyLevel = content.delivery === 'inbox' ? null : (content.privacyLevel ?? null);
  if (content.delivery !== 'inbox') checkUnaudited(appAudited, privacyLevel, creator);
  if (
    content.delivery !== 'inbox' &&
    (privacyLevel === null || (creator && !creator.privacyLevelOptions.includes(privacyLevel)))
  ) {
    throw new AppError('validation_failed', 'Privacy level not offered', {
      privacyLevel: 'errors.selectPrivacy',
    });
  }
  return privacyLevel;
}

/** Every video within the creator's duration limit and TikTok's, each cover frame inside its video. */
export function checkVideos(
  videos: readonly Video[],
  creator: Pick<CreatorOptions, 'maxVideoPostDurationSec'> | null,
  posts: CreateScheduleRequest['posts'],
): void {
  if (
    creator &&
    videos.some((video) =>
      exceedsDurationLimit(video.duration_seconds, creator.maxVideoPostDurationSec),
    )
  ) {
    throw new AppError('validation_failed', 'A video is too long for this account', {
      mediaIds: keys.videoTooLong,
    });
  }
  // Story and meme sources are taken outside TikTok's limits; they cannot be posted as they are.
  const unpostable = videos.filter(
    (video) => validateForTikTok(video.probe, { maxDurationSeconds: Infinity }).length > 0,
  );
  if (unpostable.length > 0) {
    throw new AppError('validation_failed', 'A video does not meet TikTok’s limits', {
      mediaIds: keys.videoNotPostable,
    });
  }

  // A cover frame must lie inside its video.
  const durations = new Map(videos.map((video) => [video.id, video.duration_seconds]));
  const coverOutside = posts.findIndex(
    (post) =>
      post.coverTimestampMs !== undefined &&
      post.coverTimestampMs > (durations.get(post.mediaId) ?? 0) * 1000,
  );
  if (coverOutside !== -1) {
    throw new AppError('validation_failed', 'The cover frame lies beyond the video', {
      [`posts.${coverOutside}.coverTimestampMs`]: 'errors.invalidCoverTime',
    });
  }
}
