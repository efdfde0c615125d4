// A stored file becoming media: probed, checked against the limits of its use, thumbnailed, and
// recorded; refused or failed, its bytes are deleted.
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { Media, MediaKind, UploadPurpose } from '@cadence/shared/schemas/media';
import { makeWorkDir } from '../../lib/work-dir.ts';
import { allowedDemuxerOf } from '../../media/media-allow-list.ts';
import {
  MediaProbeError,
  probeVideo,
  validateAsSource,
  validateForTikTok,
  type ProbedVideo,
} from '../../media/probe.ts';
import { extractThumbnail } from '../../media/thumbnails.ts';
import { putLocalFile } from '../../storage/media-storage.ts';
import { MediaRejectedError } from './media-errors.ts';
import { toMedia } from './media-view.ts';
import type { MediaServiceDeps } from './media-deps.ts';

type RegistrationDeps = Pick<
  MediaServiceDeps,
  'repository' | 'storage' | 'ffmpegPath' | 'ffprobePath' | 'logger'
>;

export interface MediaToRegister {
  id: string;
  key: string;
  kind: MediaKind;
  originalName: string;
  /** 'post': TikTok's limits; 'source': a story/meme input; 'none': files we rendered. */
  limits: UploadPurpose | 'none';
  /** A finished upload: its media row takes over its quota reservation. */
  replacesReservation: boolean;
}

function contentTypeByContainer(probe: ProbedVideo): string {
  const names = probe.container.split(',');
  if (names.includes('webm')) return 'video/webm';
  if (names.includes('mov') && !names.includes('mp4')) return 'video/quicktime';
  return 'video/mp4';
}

/** Writes the video's thumbnail to `thumbnailKey`; false when no frame could be grabbed. */
async function storeThumbnail(
  deps: RegistrationDeps,
  input: MediaToRegister,
  localPath: string,
  probed: ProbedVideo,
  thumbnailKey: string,
): Promise<boolean> {
  const workDir = await makeWorkDir('thumb-');
  try {
    const jpeg = path.join(workDir, 'thumbnail.jpg');
    await extractThumbnail(deps.ffmpegPath, localPath, jpeg, {
      durationSeconds: probed.durationSeconds,
      demuxer: allowedDemuxerOf(probed.container),
    });
    await putLocalFile(deps.storage, thumbnailKey, jpeg, { contentType: 'image/jpeg' });
    return true;
  } catch (error) {
    // A video whose frame cannot be grabbed is still a video: no thumbnail, not a refusal.
    deps.logger.warn({ err: error, mediaId: input.id }, 'thumbnail extraction failed');
    return false;
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

/** The stored file probed, checked and thumbnailed; refused or unreadable, it is deleted. */
async function probeAndThumbnail(
  deps: RegistrationDeps,
  userId: string,
  input: MediaToRegister,
): Promise<{ probe: ProbedVideo; thumbnailKey: string | null }> {
  const wantedThumbnailKey = `users/${userId}/media/${input.id}.jpg`;
  let thumbnailKey: string | null = null;
  try {
    const probe = await deps.storage.withLocalFile(input.key, async (localPath) => {
      const probed = await probeVideo(deps.ffprobePath, localPath);
      const problems =
        input.limits === 'post'
          ? validateForTikTok(probed)
          : input.limits === 'source'
            ? validateAsSource(probed)
            : [];
      if (problems.length > 0) throw new MediaRejectedError(problems);
      if (await storeThumbnail(deps, input, localPath, probed, wantedThumbnailKey)) {
        thumbnailKey = wantedThumbnailKey;
      }
      return probed;
    });
    return { probe, thumbnailKey };
  } catch (error) {
    await deps.storage.delete(input.key);
    if (error instanceof MediaProbeError) throw new MediaRejectedError(['not_a_video']);
    throw error;
  }
}

/** Probes the stored object, checks TikTok's limits, makes a thumbnail and records the row. */
export async function registerMedia(
  deps: RegistrationDeps,
  userId: string,
  input: MediaToRegister,
): Promise<Media> {
  const { repository, storage } = deps;
  const { probe, thumbnailKey } = await probeAndThumbnail(deps, userId, input);
  const values = {
    id: input.id,
    user_id: userId,
    kind: input.kind,
    original_name: input.originalName.slice(0, 255) || 'video',
    content_type: contentTypeByContainer(probe),
    size_bytes: probe.sizeBytes,
    storage_key: input.key,
    thumbnail_key: thumbnailKey,
    duration_seconds: probe.durationSeconds,
    width: probe.displayWidth,
    height: probe.displayHeight,
    has_audio: probe.hasAudio,
    probe: JSON.stringify(probe),
  };
  try {
    const row = input.replacesReservation
      ? await repository.insertReplacingReservation(values)
      : await repository.insert(values);
    return toMedia(row);
  } catch (error) {
    // No row, no file: nothing would ever list or delete them.
    await Promise.all([
      storage.delete(input.key),
      thumbnailKey ? storage.delete(thumbnailKey) : Promise.resolve(),
    ]);
    throw error;
  }
}
