import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { formatFileSize } from './error-text.ts';
import { useLanguage } from './i18n.ts';
import type { UploadTransfer } from './upload.ts';
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
export function TransferDetail({
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
