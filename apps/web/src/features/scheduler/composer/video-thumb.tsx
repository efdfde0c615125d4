import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTimestamp } from '../../../lib/format-time.ts';
import { PauseIcon, PlayIcon, VideoIcon } from '../components/icons.tsx';

/**
 * A video in the form's list as a poster frame with a play button over it and its duration in
 * the corner, the way a phone's gallery shows one. A 72 px wide `<video controls>` drew the
 * browser's menu button and scrubber over the whole picture (issue 15). The button plays and
 * pauses the video where it is; the poster is the server's thumbnail once there is one, else the
 * file's first frame.
 */
export function VideoThumb({
  name,
  playUrl,
  posterUrl,
  durationSeconds,
}: {
  name: string;
  /** The local file or the stored one; null when there is nothing to play. */
  playUrl: string | null;
  posterUrl: string | null;
  durationSeconds: number | null;
}) {
  const { t } = useTranslation();
  const player = useRef<HTMLVideoElement>(null);
  const [playing, setPlaying] = useState(false);
  const [metadataSeconds, setMetadataSeconds] = useState<number | null>(null);
  const seconds = durationSeconds ?? metadataSeconds;

  const toggle = () => {
    const video = player.current;
    if (!video) return;
    if (video.paused) void video.play().catch(() => setPlaying(false));
    else video.pause();
  };

  return (
    <div className="group relative h-32 w-[4.5rem] shrink-0 overflow-hidden rounded-lg bg-slate-900 sm:h-36 sm:w-20">
      {playUrl ? (
        // The creator's own file, just chosen: there is no caption track to offer.
        // eslint-disable-next-line jsx-a11y/media-has-caption
        <video
          ref={player}
          src={playUrl}
          poster={posterUrl ?? undefined}
          playsInline
          preload="metadata"
          className="h-full w-full object-cover"
          onLoadedMetadata={(event) => {
            const { duration } = event.currentTarget;
            if (Number.isFinite(duration)) setMetadataSeconds(duration);
          }}
          onPlay={() => setPlaying(true)}
          onPause={() => setPlaying(false)}
          onEnded={() => setPlaying(false)}
        />
      ) : posterUrl ? (
        <img
          src={posterUrl}
          alt={t('scheduler.form.videos.preview', { name })}
          className="h-full w-full object-cover"
        />
      ) : (
        <div className="flex h-full w-full items-center justify-center text-slate-500">
          <VideoIcon className="h-6 w-6" />
        </div>
      )}
      {playUrl && (
        <button
          type="button"
          onClick={toggle}
          aria-label={t(playing ? 'scheduler.form.videos.pause' : 'scheduler.form.videos.play', {
            name,
          })}
          className="absolute inset-0 flex items-center justify-center rounded-lg focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-brand-500"
        >
          <span
            className={`flex h-9 w-9 items-center justify-center rounded-full bg-black/60 text-white ring-1 ring-white/40 transition ${playing ? 'opacity-0 group-focus-within:opacity-100 group-hover:opacity-100' : ''}`}
          >
            {playing ? <PauseIcon className="h-4 w-4" /> : <PlayIcon className="ml-0.5 h-4 w-4" />}
          </span>
        </button>
      )}
      {seconds !== null && (
        <span className="pointer-events-none absolute bottom-1 right-1 rounded bg-black/70 px-1 py-px text-[11px] font-semibold tabular-nums text-white">
          {formatTimestamp(seconds)}
        </span>
      )}
    </div>
  );
}
