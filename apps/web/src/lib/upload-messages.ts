import type { MediaRejectionReason } from '@cadence/shared/schemas/media';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

const rejectionKeys: Record<MediaRejectionReason, string> = {
  not_a_video: 'media.rejected.not_a_video',
  unsupported_container: 'media.rejected.unsupported_container',
  unsupported_codec: 'media.rejected.unsupported_codec',
  duration_too_long: 'media.rejected.duration_too_long',
  too_small: 'media.rejected.too_small',
  too_large: 'media.rejected.too_large',
  fps_out_of_range: 'media.rejected.fps_out_of_range',
  file_too_big: 'media.rejected.file_too_big',
  quota_exceeded: 'media.rejected.quota_exceeded',
  source_too_long: 'media.rejected.source_too_long',
};

/** TikTok's own ceiling, shown when the server's is not known yet. */
const DEFAULT_MAX_BYTES = 4 * 1024 ** 3;

/** '4 Go' / '4 GB', '500 Mo' / '500 MB' in the current language (binary units, as disks count). */
export function formatFileSize(bytes: number, language: string): string {
  const gib = bytes / 1024 ** 3;
  const [value, unit] = gib >= 1 ? [gib, 'gigabyte'] : [bytes / 1024 ** 2, 'megabyte'];
  return new Intl.NumberFormat(language, {
    style: 'unit',
    unit,
    maximumFractionDigits: 1,
  }).format(value);
}

/**
 * The sentences explaining why an upload failed: each reason the server gave, translated, or the
 * network message when it gave none (the connection dropped for good).
 */
export function useUploadProblems(): (
  rejection: readonly MediaRejectionReason[] | null,
  maxBytes: number | null,
) => string[] {
  const { t, i18n } = useTranslation();
  return useCallback(
    (rejection, maxBytes) =>
      rejection && rejection.length > 0
        ? rejection.map((reason) =>
            t(rejectionKeys[reason], {
              max: formatFileSize(maxBytes ?? DEFAULT_MAX_BYTES, i18n.language),
            }),
          )
        : [t('media.networkError')],
    [t, i18n.language],
  );
}
