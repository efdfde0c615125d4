import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { ProgressBar } from '../components/ui/progress-bar.tsx';
import { formatFileSize } from './error-text.ts';
import { useLanguage } from './i18n.ts';
import type { UploadStatus, UploadTransfer } from './upload.ts';
import { roundTimeLeft } from './upload-estimate.ts';

/** An upload's progress in words: what is sent of what, and the time left once estimated. */
export interface TransferWords {
  /** '412 Mo sur 1,2 Go' / '412 MB of 1.2 GB' */
  amount: string;
  /** 'environ 3 min restantes' / 'about 3 min left'; null until it can be estimated. */
  timeLeft: string | null;
  /** Both as one sentence, for an aria-valuetext. */
  text: string;
}

// The same in both languages; the parts are shown apart so that a line breaks between them.
const separator = ' · ';

export function useTransferWords(): (transfer: UploadTransfer) => TransferWords {
  const { t } = useTranslation();
  const { language } = useLanguage();
  return useCallback(
    ({ sentBytes, totalBytes, msLeft }) => {
      const amount = t('media.transfer.amount', {
        sent: formatFileSize(sentBytes, language),
        total: formatFileSize(totalBytes, language),
      });
      if (msLeft === null) return { amount, timeLeft: null, text: amount };
      const left = roundTimeLeft(msLeft);
      const timeLeft =
        left.unit === 'lessThanMinute'
          ? t('media.transfer.lessThanMinute')
          : t('media.transfer.timeLeft', {
              count: left.value,
              duration: new Intl.NumberFormat(language, {
                style: 'unit',
                unit: left.unit,
                maximumFractionDigits: 1,
              }).format(left.value),
            });
      return { amount, timeLeft, text: `${amount}${separator}${timeLeft}` };
    },
    [t, language],
  );
}

/**
 * The words under an upload's bar. Each part wraps as a whole when the line is short (a phone's
 * card: 'environ' was left alone at the end of the first line), and within itself only if it
 * does not fit a line on its own. `stacked`: a line each, for a thumbnail a few words wide.
 */
function TransferDetail({
  words,
  className,
  stacked = false,
}: {
  words: TransferWords;
  className: string;
  stacked?: boolean;
}) {
  const part = stacked ? 'block' : 'inline-block';
  return (
    <p className={className} data-testid="upload-transfer">
      <span className={part}>{words.amount}</span>
      {words.timeLeft !== null && (
        <>
          {!stacked && separator}
          <span className={part}>{words.timeLeft}</span>
        </>
      )}
    </p>
  );
}

/** What `UploadProgress` reads of an upload: an UploadItem, or a scheduler form's video. */
export interface UploadProgressState {
  /** 0..1 */
  progress: number;
  status: UploadStatus;
  /** Null for a video that was already stored (nothing is sent). */
  transfer: UploadTransfer | null;
}

/**
 * An upload's progress, the same wherever a video is sent (scheduler, story creator, meme
 * detector): a bar named after the file whose aria-valuetext gives the percent, what is sent of
 * what and the time left (`statusText` when there are no bytes to count); `statusText`, the state
 * in words ('Envoi en cours… 40 %', 'Prête', why it was refused), in a polite live region; and
 * while bytes go out, the amount and time left under it, out of the live region, which would
 * otherwise speak at every progress event. `showBar`: false once the bar has nothing to say.
 */
export function UploadProgress({
  name,
  upload,
  statusText,
  showBar = true,
  trackClassName,
  barClassName,
  statusClassName,
  detailClassName,
  stacked = false,
}: {
  name: string;
  upload: UploadProgressState;
  statusText: string;
  showBar?: boolean;
  /** The bar's track and filled part (ProgressBar's className and barClassName). */
  trackClassName?: string;
  barClassName?: string;
  statusClassName: string;
  detailClassName: string;
  /** The amount and the time left a line each, for a thumbnail a few words wide. */
  stacked?: boolean;
}) {
  const { t } = useTranslation();
  const transferWords = useTransferWords();
  const percent = Math.round(upload.progress * 100);
  const words =
    upload.status === 'uploading' && percent < 100 && upload.transfer !== null
      ? transferWords(upload.transfer)
      : null;
  return (
    <>
      {showBar && (
        <ProgressBar
          label={t('media.progressLabel', { name })}
          percent={percent}
          valueText={
            words === null
              ? statusText
              : t('media.transfer.valueText', { percent, detail: words.text })
          }
          className={trackClassName}
          barClassName={barClassName}
        />
      )}
      <p className={statusClassName} aria-live="polite">
        {statusText}
      </p>
      {words !== null && (
        <TransferDetail stacked={stacked} words={words} className={detailClassName} />
      )}
    </>
  );
}
