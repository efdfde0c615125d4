import { newPasswordConfirmationSchema } from '@cadence/shared/schemas/auth';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { authErrorMessage, type AuthErrorMessage } from '../../../lib/error-text.ts';
import { apiFieldErrors, zodFieldErrors, type FieldErrors } from '../../../lib/field-errors.ts';
import { useResetPassword } from '../api/reset-password.ts';

/**
 * The new password, typed twice. A link the server no longer accepts ends in `onInvalidLink`;
 * `onSettled` follows every refused or accepted submit (for where the focus goes next).
 */
export function ResetPasswordForm({
  token,
  onDone,
  onInvalidLink,
  onSettled,
}: {
  token: string;
  onDone: () => void;
  onInvalidLink: () => void;
  onSettled: () => void;
}) {
  const { t } = useTranslation();
  const reset = useResetPassword();
  const [newPassword, setNewPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [fields, setFields] = useState<FieldErrors>({});
  const [error, setError] = useState<AuthErrorMessage | null>(null);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setFields({});
    setError(null);
    const parsed = newPasswordConfirmationSchema.safeParse({ newPassword, confirmPassword });
    if (!parsed.success) {
      setFields(zodFieldErrors(parsed.error));
      onSettled();
      return;
    }
    try {
      await reset.mutateAsync({ token, newPassword: parsed.data.newPassword });
      onDone();
    } catch (caught) {
      const named = apiFieldErrors(caught);
      if (named?._ === 'auth.errors.resetLinkInvalid' || named?.token) onInvalidLink();
      else if (named?.newPassword) setFields(named);
      else setError(authErrorMessage(caught));
    }
    onSettled();
  }

  const fieldText = (name: string) => {
    const key = fields[name];
    return key ? t(key) : null;
  };

  return (
    <form className="mt-6 space-y-4" onSubmit={(event) => void onSubmit(event)} noValidate>
      <TextField
        id="reset-new-password"
        name="new-password"
        type="password"
        autoComplete="new-password"
        label={t('auth.reset.newPassword')}
        hint={t('auth.passwordHint')}
        value={newPassword}
        error={fieldText('newPassword')}
        onChange={(event) => setNewPassword(event.target.value)}
      />
      <TextField
        id="reset-confirm-password"
        name="confirm-password"
        type="password"
        autoComplete="new-password"
        label={t('auth.reset.confirmPassword')}
        value={confirmPassword}
        error={fieldText('confirmPassword')}
        onChange={(event) => setConfirmPassword(event.target.value)}
      />
      {error && <Alert tone="error">{'key' in error ? t(error.key) : error.text}</Alert>}
      <Button type="submit" className="w-full" pending={reset.isPending}>
        {reset.isPending && <Spinner className="h-4 w-4" />}
        {reset.isPending ? t('auth.loading') : t('auth.reset.submit')}
      </Button>
    </form>
  );
}
