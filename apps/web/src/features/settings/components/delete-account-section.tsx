import { deleteAccountSchema } from '@cadence/shared/schemas/user';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { useErrorText } from '../../../lib/error-text.ts';
import { apiFieldErrors, zodFieldErrors, type FieldErrors } from '../../../lib/field-errors.ts';
import { useSubmitFocus } from '../../../lib/submit-focus.ts';
import { useDeleteAccount } from '../api/delete-account.ts';
import { SettingsCard } from './settings-card.tsx';

/** 'Supprimer mon compte': everything goes, after the password again. */
export function DeleteAccountSection() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const remove = useDeleteAccount();
  const errorText = useErrorText('errors.internal');
  const [password, setPassword] = useState('');
  const [fields, setFields] = useState<FieldErrors>({});
  // Held here, not read from the mutation: its state arrives a render after the focus moves.
  const [refusal, setRefusal] = useState<unknown>(null);
  const submitFocus = useSubmitFocus<HTMLFormElement>();

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setFields({});
    setRefusal(null);
    const parsed = deleteAccountSchema.safeParse({ password });
    if (!parsed.success) {
      setFields(zodFieldErrors(parsed.error));
      submitFocus.settled();
      return;
    }
    try {
      await remove.mutateAsync(parsed.data);
      // /auth says the account is gone (features/auth/components/auth-route.tsx reads it).
      void navigate('/auth?deleted=1', { replace: true });
    } catch (caught) {
      const named = apiFieldErrors(caught);
      if (named?.password) setFields(named);
      else setRefusal(caught);
      submitFocus.settled();
    }
  }

  return (
    <SettingsCard
      title={t('settings.deleteAccount.title')}
      description={t('settings.deleteAccount.description')}
    >
      <form
        ref={submitFocus.container}
        className="space-y-4"
        onSubmit={(event) => void onSubmit(event)}
        noValidate
      >
        <TextField
          id="delete-account-password"
          name="password"
          type="password"
          autoComplete="current-password"
          label={t('settings.deleteAccount.password')}
          value={password}
          error={fields.password ? t(fields.password) : null}
          onChange={(event) => setPassword(event.target.value)}
        />
        {refusal !== null && <Alert tone="error">{errorText(refusal)}</Alert>}
        <Button type="submit" variant="danger" pending={remove.isPending}>
          {t('settings.deleteAccount.submit')}
        </Button>
      </form>
    </SettingsCard>
  );
}
