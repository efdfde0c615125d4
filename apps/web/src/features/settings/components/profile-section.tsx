import { updateUserSchema } from '@cadence/shared/schemas/auth';
import type { Me } from '@cadence/shared/schemas/user';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { authErrorMessage, type AuthErrorMessage } from '../../../lib/error-text.ts';
import { apiFieldErrors, zodFieldErrors, type FieldErrors } from '../../../lib/field-errors.ts';
import { useSubmitFocus } from '../../../lib/submit-focus.ts';
import { useUpdateName } from '../api/update-name.ts';
import { EmailChangeForm } from './email-change-form.tsx';
import { SettingsCard } from './settings-card.tsx';

export function ProfileSection({ me }: { me: Me }) {
  const { t } = useTranslation();
  const updateName = useUpdateName();
  const [name, setName] = useState(me.name);
  const [fields, setFields] = useState<FieldErrors>({});
  const [error, setError] = useState<AuthErrorMessage | null>(null);
  const [saved, setSaved] = useState(false);
  const submitFocus = useSubmitFocus<HTMLFormElement>();

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setFields({});
    setError(null);
    setSaved(false);
    const parsed = updateUserSchema.safeParse({ name });
    if (!parsed.success || parsed.data.name === undefined) {
      setFields(parsed.success ? {} : zodFieldErrors(parsed.error));
      submitFocus.settled();
      return;
    }
    try {
      await updateName.mutateAsync(parsed.data.name);
      setName(parsed.data.name);
      setSaved(true);
    } catch (caught) {
      const named = apiFieldErrors(caught);
      if (named?.name) setFields(named);
      else setError(authErrorMessage(caught));
    }
    submitFocus.settled();
  }

  return (
    <SettingsCard title={t('settings.profile.title')}>
      <form
        ref={submitFocus.container}
        className="space-y-4"
        onSubmit={(event) => void onSubmit(event)}
        noValidate
      >
        <TextField
          id="settings-name"
          name="name"
          autoComplete="name"
          label={t('settings.profile.name')}
          value={name}
          error={fields.name ? t(fields.name) : null}
          onChange={(event) => {
            setName(event.target.value);
            setSaved(false);
          }}
        />
        {error && <Alert tone="error">{'key' in error ? t(error.key) : error.text}</Alert>}
        {saved && <Alert tone="success">{t('settings.profile.saved')}</Alert>}
        <Button type="submit" pending={updateName.isPending}>
          {t('settings.profile.save')}
        </Button>
      </form>
      <div className="mt-6 border-t border-slate-200 pt-5">
        <EmailChangeForm me={me} />
      </div>
    </SettingsCard>
  );
}
