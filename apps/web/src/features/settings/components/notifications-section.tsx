import {
  notificationSettingsSchema,
  notificationTypes,
  type NotificationSettings,
} from '@cadence/shared/schemas/notification';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { useErrorText } from '../../../lib/error-text.ts';
import { useSubmitFocus } from '../../../lib/submit-focus.ts';
import {
  useNotificationSettings,
  useSaveNotificationSettings,
} from '../api/notification-settings.ts';
import { SettingsCard } from './settings-card.tsx';

/** Email per notification type, and the daily digest. */
export function NotificationsSection() {
  const { t } = useTranslation();
  const settings = useNotificationSettings();
  return (
    <SettingsCard
      title={t('settings.notifications.title')}
      description={t('settings.notifications.description')}
    >
      {settings.isError ? (
        <Alert tone="error">{t('settings.notifications.loadError')}</Alert>
      ) : settings.data ? (
        <NotificationsForm initial={settings.data} />
      ) : null}
    </SettingsCard>
  );
}

function NotificationsForm({ initial }: { initial: NotificationSettings }) {
  const { t } = useTranslation();
  const save = useSaveNotificationSettings();
  const errorText = useErrorText('errors.internal');
  const [emailTypes, setEmailTypes] = useState(new Set(initial.emailTypes));
  const [digest, setDigest] = useState(initial.digest);
  const [saved, setSaved] = useState(false);
  // Held here, not read from the mutation: its state arrives a render after the focus moves.
  const [refusal, setRefusal] = useState<unknown>(null);
  const submitFocus = useSubmitFocus<HTMLFormElement>();

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    setSaved(false);
    setRefusal(null);
    const body = notificationSettingsSchema.parse({
      // In the order the page lists them.
      emailTypes: notificationTypes.filter((type) => emailTypes.has(type)),
      digest,
    });
    save.mutate(body, {
      onSuccess: () => setSaved(true),
      onError: setRefusal,
      onSettled: submitFocus.settled,
    });
  }

  return (
    <form ref={submitFocus.container} className="space-y-5" onSubmit={onSubmit} noValidate>
      <fieldset>
        <legend className="mb-2 text-sm font-medium text-slate-700">
          {t('settings.notifications.emailLegend')}
        </legend>
        <div className="grid gap-2 sm:grid-cols-2">
          {notificationTypes.map((type) => (
            <label
              key={type}
              className="flex cursor-pointer items-start gap-2.5 rounded-lg px-3 py-2 text-sm text-slate-800 ring-1 ring-inset ring-slate-200 hover:bg-slate-50"
            >
              <input
                type="checkbox"
                name="emailTypes"
                value={type}
                checked={emailTypes.has(type)}
                onChange={(event) => {
                  setSaved(false);
                  const next = new Set(emailTypes);
                  if (event.target.checked) next.add(type);
                  else next.delete(type);
                  setEmailTypes(next);
                }}
                className="mt-0.5 h-4 w-4 shrink-0 accent-brand-500"
              />
              {t(`settings.notifications.types.${type}`)}
            </label>
          ))}
        </div>
      </fieldset>
      <div className="flex items-start gap-2.5 text-sm text-slate-800">
        <input
          id="notifications-digest"
          aria-describedby="notifications-digest-hint"
          type="checkbox"
          name="digest"
          checked={digest}
          onChange={(event) => {
            setSaved(false);
            setDigest(event.target.checked);
          }}
          className="mt-0.5 h-4 w-4 shrink-0 accent-brand-500"
        />
        <div>
          <label htmlFor="notifications-digest" className="cursor-pointer font-medium">
            {t('settings.notifications.digest')}
          </label>
          <p id="notifications-digest-hint" className="text-slate-600">
            {t('settings.notifications.digestHint')}
          </p>
        </div>
      </div>
      {refusal !== null && <Alert tone="error">{errorText(refusal)}</Alert>}
      {saved && <Alert tone="success">{t('settings.notifications.saved')}</Alert>}
      <Button type="submit" pending={save.isPending}>
        {t('settings.notifications.save')}
      </Button>
    </form>
  );
}
