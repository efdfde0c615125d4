import { useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { UploadIcon, XIcon } from '../../../components/ui/icons.tsx';
import { useUploadProblems } from '../../../lib/error-text.ts';
import { UploadProgress } from '../../../lib/upload-progress.tsx';
import type { UploadProblem, UploadTransfer } from '../../../lib/upload.ts';
import { FieldError } from '../components/form-controls.tsx';
import { CaptionField } from './caption-field.tsx';
import { CoverPicker } from './cover-picker.tsx';
import { VideoThumb } from './video-thumb.tsx';

/** A video in the form: a running/finished upload, or an existing media sent by another screen. */
export interface FormVideo {
  key: string;
  name: string;
  /** A local object URL (uploads) for the preview player. */
  previewUrl: string | null;
  thumbnailUrl: string | null;
  status: 'uploading' | 'done' | 'error';
  progress: number;
  /** An upload's bytes and time left; null for a video already stored (attached). */
  transfer: UploadTransfer | null;
  mediaId: string | null;
  rejection: UploadProblem[] | null;
  /** The largest file the upload could have been (for the 'too large' message). */
  maxBytes: number | null;
  /** Longer than the creator may post (creator_info.max_video_post_duration_sec). */
  tooLongFor: number | null;
  /** The media a `?media=` link pointed at could not be found. */
  missing: boolean;
  /** Where the cover picker reads frames from (the local file, or the stored one); null until stored. */
  coverSource: { url: string; durationSeconds: number } | null;
}

export function VideoField({
  videos,
  captions,
  covers,
  onCover,
  error,
  captionErrors,
  onAdd,
  onRemove,
  onCaption,
  inputId,
}: {
  videos: readonly FormVideo[];
  captions: Record<string, string>;
  covers: Record<string, number>;
  onCover: (key: string, ms: number) => void;
  error: string | undefined;
  captionErrors: (index: number) => string | undefined;
  onAdd: (files: File[]) => void;
  onRemove: (video: FormVideo) => void;
  onCaption: (key: string, caption: string) => void;
  inputId: string;
}) {
  const { t } = useTranslation();
  const errorId = useId();
  const hintId = useId();
  const inputRef = useRef<HTMLInputElement>(null);

  return (
    <div>
      <label
        htmlFor={inputId}
        className={`group flex cursor-pointer flex-col items-center justify-center gap-2 rounded-2xl border-2 border-dashed px-4 py-6 text-center transition focus-within:border-brand-500 focus-within:ring-2 focus-within:ring-brand-500/30 hover:border-brand-500 hover:bg-brand-50/40 ${error ? 'border-red-300 bg-red-50/40' : 'border-slate-300 bg-slate-50/60'}`}
      >
        <span className="flex h-11 w-11 items-center justify-center rounded-xl bg-white text-brand-600 shadow-sm ring-1 ring-slate-200 group-hover:text-brand-700">
          <UploadIcon className="h-5 w-5" />
        </span>
        <span className="text-sm font-semibold text-slate-900">
          {t('scheduler.form.videos.add')}
        </span>
        <span id={hintId} className="text-xs text-slate-500">
          {t('scheduler.form.videos.hint')}
        </span>
        <input
          ref={inputRef}
          id={inputId}
          type="file"
          accept="video/*"
          multiple
          className="sr-only"
          aria-describedby={error ? `${hintId} ${errorId}` : hintId}
          aria-invalid={error ? true : undefined}
          onChange={(event) => {
            const files = [...(event.target.files ?? [])];
            if (files.length > 0) onAdd(files);
            // The same file can be chosen again after a removal.
            event.target.value = '';
          }}
        />
      </label>
      <FieldError id={errorId}>{error}</FieldError>

      {videos.length > 0 && (
        <ul className="mt-4 space-y-3" aria-label={t('scheduler.form.videos.listLabel')}>
          {videos.map((video, index) => (
            <li key={video.key}>
              <VideoCard
                video={video}
                caption={captions[video.key] ?? ''}
                coverMs={covers[video.key]}
                onCover={(ms) => onCover(video.key, ms)}
                captionError={captionErrors(index)}
                onRemove={() => onRemove(video)}
                onCaption={(caption) => onCaption(video.key, caption)}
              />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function VideoCard({
  video,
  caption,
  coverMs,
  onCover,
  captionError,
  onRemove,
  onCaption,
}: {
  video: FormVideo;
  caption: string;
  coverMs: number | undefined;
  onCover: (ms: number) => void;
  captionError: string | undefined;
  onRemove: () => void;
  onCaption: (caption: string) => void;
}) {
  const { t } = useTranslation();
  const uploadProblems = useUploadProblems();
  const percent = Math.round(video.progress * 100);
  const rejected = video.status === 'error';
  const problems: string[] = [];
  if (rejected) {
    problems.push(
      ...(video.missing
        ? [t('scheduler.form.videos.missing')]
        : uploadProblems(video.rejection, video.maxBytes)),
    );
  }
  if (video.tooLongFor !== null) {
    problems.push(t('scheduler.form.videos.tooLong', { max: video.tooLongFor }));
  }

  return (
    <div
      className={`grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 rounded-xl bg-white p-3 ring-1 ${problems.length > 0 ? 'ring-red-200' : 'ring-slate-200'}`}
    >
      <VideoThumb
        name={video.name}
        playUrl={rejected ? null : (video.previewUrl ?? video.coverSource?.url ?? null)}
        posterUrl={video.thumbnailUrl}
        durationSeconds={video.coverSource?.durationSeconds ?? null}
      />

      <div className="min-w-0 flex-1">
        <div className="flex items-start gap-2">
          <p
            className="min-w-0 flex-1 truncate pt-1 text-sm font-medium text-slate-900"
            title={video.name}
          >
            {video.name}
          </p>
          <button
            type="button"
            onClick={onRemove}
            aria-label={t('media.remove', { name: video.name })}
            title={t('media.remove', { name: video.name })}
            className="-mr-1 -mt-1 rounded-lg p-1.5 text-slate-500 transition hover:bg-red-50 hover:text-red-600 focus-visible:text-red-600"
          >
            <XIcon className="h-4 w-4" />
          </button>
        </div>

        <VideoUploadProgress video={video} percent={percent} />

        {problems.map((problem) => (
          <p key={problem} className="mt-1.5 text-xs font-medium text-red-700">
            {problem}
          </p>
        ))}

        {/* A refused file goes nowhere: no caption or cover to fill in, only why and the ✕. */}
        {!rejected && (
          <CaptionField
            name={video.name}
            caption={caption}
            onChange={onCaption}
            error={captionError}
          />
        )}
      </div>
      {/* Under the card's whole width on a narrow phone, where the column beside the poster
          left its label and hint a word a line (320 px); beside the poster from 400 px. */}
      {!rejected && video.coverSource && (
        <div className="col-span-2 min-[400px]:col-span-1 min-[400px]:col-start-2">
          <CoverPicker
            name={video.name}
            src={video.coverSource.url}
            durationSeconds={video.coverSource.durationSeconds}
            valueMs={coverMs}
            onChange={onCover}
          />
        </div>
      )}
    </div>
  );
}

function VideoUploadProgress({ video, percent }: { video: FormVideo; percent: number }) {
  const { t } = useTranslation();
  const tone =
    video.status === 'error'
      ? 'bg-red-500'
      : video.status === 'done'
        ? 'bg-emerald-500'
        : 'bg-brand-500';
  const label =
    video.status === 'done'
      ? t('media.uploaded')
      : video.status === 'error'
        ? // Refused (not a video, beyond TikTok's limits) is not an upload that failed.
          t(video.rejection?.length ? 'media.refused' : 'media.failed')
        : percent >= 100
          ? // Every byte is sent; the server is probing the video and making its thumbnail.
            t('scheduler.form.videos.checking')
          : t('media.uploading', { percent });
  return (
    <div className="mt-1">
      <UploadProgress
        name={video.name}
        upload={video}
        statusText={label}
        barClassName={tone}
        statusClassName={`mt-1 text-xs ${video.status === 'error' ? 'text-red-700' : video.status === 'done' ? 'text-emerald-700' : 'text-slate-500'}`}
        detailClassName="mt-0.5 text-xs tabular-nums text-slate-500"
      />
    </div>
  );
}
