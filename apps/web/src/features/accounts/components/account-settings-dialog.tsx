import {
  privacyLevels,
  type Account,
  type AccountSettings,
  type PrivacyLevel,
} from '@cadence/shared/schemas/account';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { privacyLabelKeys } from '../../../lib/privacy-labels.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { FormDialog, useFormDialog } from '../../../components/ui/form-dialog.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { wrappableHandle } from '../wrappable-handle.ts';
import { useUpdateAccountSettings } from '../api/mutate-accounts.ts';

const toggles = [
  { name: 'allowComment', labelKey: 'accounts.settings.allowComment' },
  { name: 'allowDuet', labelKey: 'accounts.settings.allowDuet' },
  { name: 'allowStitch', labelKey: 'accounts.settings.allowStitch' },
] as const satisfies { name: keyof AccountSettings; labelKey: string }[];

function parsePrivacy(value: string): PrivacyLevel | null {
  return privacyLevels.find((level) => level === value) ?? null;
}

/** Per-account defaults the scheduler form starts from. `account` null = closed. */
export function AccountSettingsDialog({
  account,
  onClose,
  onSaved,
}: {
  account: Account | null;
  onClose: () => void;
  onSaved: (account: Account) => void;
}) {
  const { t } = useTranslation();
  const update = useUpdateAccountSettings();
  const username = account?.username ?? '';
  const { formId, close } = useFormDialog(update, onClose);

  return (
    <FormDialog
      open={account !== null}
      onClose={close}
      formId={formId}
      pending={update.isPending}
      title={t('accounts.settings.title', { username: wrappableHandle(username) })}
      description={t('accounts.settings.description')}
      closeLabel={t('accounts.settings.close')}
      cancelLabel={t('accounts.settings.cancel')}
      submitLabel={update.isPending ? t('accounts.settings.saving') : t('accounts.settings.save')}
    >
      {account && (
        // Keyed by account: each opening starts from what is saved, not from an abandoned edit.
        <SettingsForm
          key={account.id}
          formId={formId}
          initial={account.settings}
          error={update.error}
          onSubmit={(settings) =>
            update.mutate(
              { id: account.id, settings },
              {
                onSuccess: (saved) => {
                  update.reset();
                  onSaved(saved);
                },
              },
            )
          }
        />
      )}
    </FormDialog>
  );
}

function SettingsForm({
  formId,
  initial,
  error,
  onSubmit,
}: {
  formId: string;
  initial: AccountSettings;
  error: Error | null;
  onSubmit: (settings: AccountSettings) => void;
}) {
  const { t } = useTranslation();
  const [settings, setSettings] = useState(initial);
  const privacyId = useId();
  const privacyHintId = useId();

  function submit(event: FormEvent) {
    event.preventDefault();
    onSubmit(settings);
  }

  return (
    <form id={formId} onSubmit={submit} className="space-y-6" noValidate>
      <div>
        <label htmlFor={privacyId} className="mb-1.5 block text-sm font-medium text-slate-700">
          {t('accounts.settings.privacy')}
        </label>
        <select
          id={privacyId}
          aria-describedby={privacyHintId}
          value={settings.defaultPrivacyLevel ?? ''}
          onChange={(event) =>
            setSettings({ ...settings, defaultPrivacyLevel: parsePrivacy(event.target.value) })
          }
          className="block w-full rounded-lg border-0 bg-white py-2.5 pl-3.5 pr-10 text-slate-900 shadow-sm ring-1 ring-inset ring-slate-300 focus:ring-2 focus:ring-inset focus:ring-brand-500 sm:text-sm"
        >
          <option value="">{t('accounts.settings.privacyPlaceholder')}</option>
          {privacyLevels.map((level) => (
            <option key={level} value={level}>
              {t(privacyLabelKeys[level])}
            </option>
          ))}
        </select>
        <p id={privacyHintId} className="mt-1.5 text-xs text-slate-500">
          {t('accounts.settings.privacyHint')}
        </p>
      </div>
      <fieldset>
        <legend className="mb-2 text-sm font-medium text-slate-700">
          {t('accounts.settings.interactions')}
        </legend>
        <div className="divide-y divide-slate-100 rounded-xl ring-1 ring-slate-200">
          {toggles.map(({ name, labelKey }) => (
            <label
              key={name}
              className="flex cursor-pointer items-center justify-between gap-4 px-4 py-3 text-sm text-slate-800 hover:bg-slate-50"
            >
              {t(labelKey)}
              <input
                type="checkbox"
                name={name}
                checked={settings[name]}
                onChange={(event) => setSettings({ ...settings, [name]: event.target.checked })}
                className="h-4 w-4 rounded border-slate-300 accent-brand-600"
              />
            </label>
          ))}
        </div>
      </fieldset>
      {error && (
        <Alert tone="error">
          {t(error instanceof ApiError ? error.translationKey : 'errors.internal')}
        </Alert>
      )}
    </form>
  );
}
