import type { Media } from '@cadence/shared/schemas/media';
import type { UploadItem } from '../../../lib/upload.ts';
import { useMediaList } from '../api/get-media.ts';
import type { FormVideo } from './video-field.tsx';
import { formVideos } from './schedule-draft.ts';

/**
 * The form's videos: attached media and uploads, each with its stored media (thumbnail,
 * duration) once known. Derived on every render, which is cheap; the queries are the cache.
 */
export function useFormVideos(
  attached: readonly string[],
  uploads: readonly UploadItem[],
  maxDuration: number | null,
): FormVideo[] {
  const attachedMedia = useMediaList(attached);
  const uploadIds = uploads.flatMap((item) => (item.mediaId ? [item.mediaId] : []));
  const uploadedQueries = useMediaList(uploadIds);
  const uploadedMedia = new Map<string, Media>();
  uploadIds.forEach((id, index) => {
    const media = uploadedQueries[index]?.data;
    if (media) uploadedMedia.set(id, media);
  });
  return formVideos({ attached, attachedMedia, uploads, uploadedMedia, maxDuration });
}
