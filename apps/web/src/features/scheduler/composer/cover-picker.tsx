import { useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '../../../lib/i18n.ts';

/** Scrubber steps: a tenth of a second is finer than any creator needs for a cover. */
const STEP_MS = 100;

/**
 * TikTok's cover frame (post_info.video_cover_timestamp_ms), chosen on a scrubber over the video
 * itself with a live preview: the preview is the video paused at the chosen time, so what the
 * creator sees is the frame TikTok will take.
 */
export function CoverPicker({
  name,
  src,
  durationSeconds,
  valueMs,
  onChange,
}: {
  name: string;
  src: string;
  durationSeconds: number;
  /** undefined until the creator moves the scrubber (TikTok then takes its default frame). */
  valueMs: number | undefined;
  onChange: (ms: number) => void;
}) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const sliderId = useId();
  const hintId = useId();
  const preview = useRef<HTMLVideoElement>(null);
  const maxMs = Math.max(0, Math.floor((durationSeconds * 1000) / STEP_MS) * STEP_MS);
  const shownMs = Math.min(valueMs ?? 0, maxMs);
  // '1.2' in English, '1,2' in French.
  const seconds = new Intl.NumberFormat(language, {
    minimumFractionDigits: 1,
    maximumFractionDigits: 1,
  }).format(shownMs / 1000);

  useEffect(() => {
    const video = preview.current;
    if (!video) return;
    const seek = () => {
      video.currentTime = shownMs / 1000;
    };
    // Seeking before the metadata is in is ignored by the browser: wait for it.
    if (video.readyState >= HTMLMediaElement.HAVE_METADATA) seek();
    else video.addEventListener('loadedmetadata', seek, { once: true });
    return () => video.removeEventListener('loadedmetadata', seek);
  }, [shownMs]);

  return (
    <div className="mt-2 flex items-center gap-3">
      <video
        ref={preview}
        src={src}
        muted
        playsInline
        preload="auto"
        aria-label={t('scheduler.form.cover.preview', { name })}
        data-testid="cover-preview"
        className="h-20 w-[2.8rem] shrink-0 rounded-md bg-slate-900 object-cover ring-1 ring-slate-200"
      />
      <div className="min-w-0 flex-1">
        <label htmlFor={sliderId} className="block text-xs font-medium text-slate-700">
          {t('scheduler.form.cover.label')}
          <span className="ml-2 font-normal tabular-nums text-slate-500">
            {t('scheduler.form.cover.at', { seconds })}
          </span>
        </label>
        <input
          id={sliderId}
          type="range"
          min={0}
          max={maxMs}
          step={STEP_MS}
          value={shownMs}
          onChange={(event) => onChange(Number(event.target.value))}
          aria-label={t('scheduler.form.cover.slider', { name })}
          aria-valuetext={t('scheduler.form.cover.at', { seconds })}
          aria-describedby={hintId}
          className="mt-1 w-full accent-brand-600"
        />
        <p id={hintId} className="text-xs text-slate-500">
          {t('scheduler.form.cover.hint')}
        </p>
      </div>
    </div>
  );
}
