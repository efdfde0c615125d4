import { MAX_TITLE_LENGTH } from '@cadence/shared/schemas/schedule';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { FieldError, inputClass } from '../components/form-controls.tsx';

/** A video's caption, with its length against TikTok's limit. `name`: the video's file name. */
export function CaptionField({
  name,
  caption,
  onChange,
  error,
}: {
  name: string;
  caption: string;
  onChange: (caption: string) => void;
  error: string | undefined;
}) {
  const { t } = useTranslation();
  const captionId = useId();
  const counterId = useId();
  const errorId = useId();
  const describedBy = [counterId, error ? errorId : null].filter(Boolean).join(' ');
  return (
    <>
      <label htmlFor={captionId} className="sr-only">
        {t('scheduler.form.videos.captionLabel', { name })}
      </label>
      <textarea
        id={captionId}
        value={caption}
        rows={2}
        placeholder={t('scheduler.form.videos.captionPlaceholder')}
        onChange={(event) => onChange(event.target.value)}
        aria-describedby={describedBy}
        aria-invalid={error ? true : undefined}
        className={`${inputClass} mt-2 resize-y text-sm`}
      />
      <div className="mt-1 flex items-start justify-between gap-2">
        <FieldError id={errorId}>{error}</FieldError>
        <p
          id={counterId}
          className={`ml-auto text-xs tabular-nums ${caption.length > MAX_TITLE_LENGTH ? 'font-semibold text-red-700' : 'text-slate-500'}`}
        >
          {t('scheduler.form.videos.counter', { n: caption.length, max: MAX_TITLE_LENGTH })}
        </p>
      </div>
    </>
  );
}
