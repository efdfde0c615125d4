import type { AuthSession } from '@cadence/shared/schemas/auth';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { useLanguage } from '../../../lib/i18n.ts';
import { useTimeZone } from '../../../lib/use-time-zone.ts';
import { useSubmitFocus } from '../../../lib/submit-focus.ts';
import { useCurrentSessionId, useSessions } from '../api/get-sessions.ts';
import { useRevokeOtherSessions, useRevokeSession } from '../api/revoke-sessions.ts';
import { describeDevice } from '../describe-device.ts';
import { SettingsCard } from './settings-card.tsx';

type Notice = 'revoked' | 'othersRevoked' | 'failed' | null;

/** The person's open sessions, this one first; others can be signed out one by one or all at once. */
export function SessionsSection() {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const { timeZone } = useTimeZone();
  const sessions = useSessions();
  const currentId = useCurrentSessionId();
  const revokeSession = useRevokeSession();
  const revokeOthers = useRevokeOtherSessions();
  const [notice, setNotice] = useState<Notice>(null);
  const submitFocus = useSubmitFocus<HTMLDivElement>();

  const deviceName = (session: AuthSession) => {
    const { browser, os } = describeDevice(session.userAgent);
    if (browser && os) return t('settings.sessions.device', { browser, os });
    return browser ?? os ?? t('settings.sessions.unknownDevice');
  };

  const list = [...(sessions.data ?? [])].sort(
    (a, b) =>
      Number(b.id === currentId.data) - Number(a.id === currentId.data) ||
      b.createdAt.localeCompare(a.createdAt),
  );
  const others = list.filter((session) => session.id !== currentId.data);

  return (
    <SettingsCard
      title={t('settings.sessions.title')}
      description={t('settings.sessions.description')}
    >
      {sessions.isPending || currentId.isPending ? (
        <Spinner className="h-5 w-5 text-slate-400" />
      ) : sessions.isError || currentId.isError ? (
        <Alert tone="error">{t('settings.sessions.loadError')}</Alert>
      ) : (
        <div ref={submitFocus.container}>
          <ul aria-label={t('settings.sessions.listLabel')} className="divide-y divide-slate-100">
            {list.map((session) => (
              <SessionItem
                key={session.id}
                session={session}
                current={session.id === currentId.data}
                device={deviceName(session)}
                date={formatDateTime(session.createdAt, language, timeZone)}
                revoking={revokeSession.isPending}
                onRevoke={() => {
                  setNotice(null);
                  revokeSession.mutate(session.id, {
                    onSuccess: () => setNotice('revoked'),
                    onError: () => setNotice('failed'),
                    onSettled: submitFocus.settled,
                  });
                }}
              />
            ))}
          </ul>
          <div className="mt-5 flex flex-col gap-3 border-t border-slate-100 pt-5 sm:flex-row sm:items-center">
            <Button
              variant="secondary"
              pending={others.length === 0 || revokeOthers.isPending}
              onClick={() => {
                setNotice(null);
                revokeOthers.mutate(undefined, {
                  onSuccess: () => setNotice('othersRevoked'),
                  onError: () => setNotice('failed'),
                  onSettled: submitFocus.settled,
                });
              }}
            >
              {t('settings.sessions.revokeOthers')}
            </Button>
            {others.length === 0 && notice === null && (
              <p className="text-sm text-slate-500">{t('settings.sessions.onlyThis')}</p>
            )}
          </div>
          {notice && (
            <div className="mt-4">
              {notice === 'failed' ? (
                <Alert tone="error">{t('errors.internal')}</Alert>
              ) : (
                <Alert tone="success">{t(`settings.sessions.${notice}`)}</Alert>
              )}
            </div>
          )}
        </div>
      )}
    </SettingsCard>
  );
}

/** One session: its device, when it signed in and from where; 'Déconnecter' unless it is this one. */
function SessionItem({
  session,
  current,
  device,
  date,
  revoking,
  onRevoke,
}: {
  session: AuthSession;
  current: boolean;
  device: string;
  date: string;
  revoking: boolean;
  onRevoke: () => void;
}) {
  const { t } = useTranslation();
  return (
    <li className="flex flex-col gap-3 py-3 first:pt-0 last:pb-0 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0">
        <p className="flex flex-wrap items-center gap-2 font-medium text-slate-900">
          {device}
          {current && (
            <span className="rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-semibold text-emerald-700 ring-1 ring-inset ring-emerald-200">
              {t('settings.sessions.current')}
            </span>
          )}
        </p>
        <p className="mt-0.5 text-sm text-slate-600">
          {t('settings.sessions.signedInAt', { date })}
        </p>
        {session.ipAddress && (
          <p className="break-all text-sm text-slate-600">
            {t('settings.sessions.ip', { ip: session.ipAddress })}
          </p>
        )}
      </div>
      {!current && (
        <Button
          variant="secondary"
          className="shrink-0 self-start sm:self-auto"
          aria-label={t('settings.sessions.revokeLabel', { device, date })}
          pending={revoking}
          onClick={onRevoke}
        >
          {t('settings.sessions.revoke')}
        </Button>
      )}
    </li>
  );
}
