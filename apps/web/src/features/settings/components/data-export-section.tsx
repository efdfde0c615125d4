import type { Language } from '@cadence/shared/errors';
import type { DataExport } from '@cadence/shared/schemas/user';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button, buttonClassName } from '../../../components/ui/button.tsx';
import { formatFileSize, useErrorText } from '../../../lib/error-text.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { useLanguage } from '../../../lib/i18n.ts';
import { useTimeZone } from '../../../lib/use-time-zone.ts';
import { useSubmitFocus } from '../../../lib/submit-focus.ts';
import { useDataExport, useRequestDataExport } from '../api/data-export.ts';
import { SettingsCard } from './settings-card.tsx';

/**
 * 'Télécharger mes données': ask for the archive, follow its preparation (the job's progress,
 * polled), download it once ready. The link needs this session: it is the owner's only.
 */
export function DataExportSection() {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const { timeZone } = useTimeZone();
  const state = useDataExport();
  const request = useRequestDataExport();
  const errorText = useErrorText('errors.internal');
  const current = state.data?.export ?? null;
  const preparing = current?.status === 'pending' || current?.status === 'running';
  // Held here, not read from the mutation: its state arrives a render after the focus moves.
  const [refusal, setRefusal] = useState<unknown>(null);
  const submitFocus = useSubmitFocus<HTMLDivElement>();

  return (
    <SettingsCard
      id="data-export"
      title={t('settings.dataExport.title')}
      description={t('settings.dataExport.description')}
    >
      <div ref={submitFocus.container} className="space-y-4">
        {current && <ExportStatus current={current} language={language} timeZone={timeZone} />}
        {refusal !== null && <Alert tone="error">{errorText(refusal)}</Alert>}
        {/* Stays while the archive is prepared (pending), so the focus stays on it. */}
        <div className="flex flex-wrap gap-2">
          {!preparing && current?.downloadUrl && (
            <a href={current.downloadUrl} download className={buttonClassName('primary')}>
              {t('settings.dataExport.download')}
            </a>
          )}
          <Button
            type="button"
            variant={current?.downloadUrl ? 'secondary' : 'primary'}
            pending={preparing || request.isPending || state.isPending}
            onClick={() => {
              setRefusal(null);
              request.mutate(undefined, { onError: setRefusal, onSettled: submitFocus.settled });
            }}
          >
            {current ? t('settings.dataExport.requestAgain') : t('settings.dataExport.request')}
          </Button>
        </div>
      </div>
    </SettingsCard>
  );
}

function ExportStatus({
  current,
  language,
  timeZone,
}: {
  current: DataExport;
  language: Language;
  timeZone: string;
}) {
  const { t } = useTranslation();
  switch (current.status) {
    case 'pending':
    case 'running':
      return (
        <div className="space-y-2">
          <p role="status" className="text-sm text-slate-700">
            {current.status === 'pending'
              ? t('settings.dataExport.pending')
              : t('settings.dataExport.running', { progress: current.progress })}
          </p>
          <progress
            className="h-2 w-full overflow-hidden rounded-full accent-slate-900"
            max={100}
            value={current.progress}
            aria-label={t('settings.dataExport.progressLabel')}
          />
        </div>
      );
    case 'ready':
      return (
        <Alert tone="success">
          {t('settings.dataExport.ready', {
            size: formatFileSize(current.sizeBytes ?? 0, language),
            date: current.expiresAt ? formatDateTime(current.expiresAt, language, timeZone) : '',
          })}
        </Alert>
      );
    case 'failed':
      return <Alert tone="error">{t('settings.dataExport.failed')}</Alert>;
    case 'expired':
      return <Alert tone="info">{t('settings.dataExport.expired')}</Alert>;
  }
}
