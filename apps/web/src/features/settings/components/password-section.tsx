import { changePasswordSchema, newPasswordConfirmationSchema } from '@cadence/shared/schemas/auth';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { authErrorMessage, type AuthErrorMessage } from '../../../lib/error-text.ts';
import { apiFieldErrors, zodFieldErrors, type FieldErrors } from '../../../lib/field-errors.ts';
import { useSubmitFocus } from '../../../lib/submit-focus.ts';
import { useChangePassword } from '../api/change-password.ts';
import { SettingsCard } from './settings-card.tsx';

const empty = { currentPassword: '', newPassword: '', confirmPassword: '' };

/** Changes the password with the current one; the server signs every other session out. */
export function PasswordSection({ email }: { email: string }) {
  const { t } = useTranslation();
  const changePassword = useChangePassword();
  const [values, setValues] = useState(empty);
  const [fields, setFields] = useState<FieldErrors>({});
  const [error, setError] = useState<AuthErrorMessage | null>(null);
  const [changed, setChanged] = useState(false);
  const submitFocus = useSubmitFocus<HTMLFormElement>();

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setFields({});
    setError(null);
    setChanged(false);
    const request = changePasswordSchema.safeParse({
      currentPassword: values.currentPassword,
      newPassword: values.newPassword,
    });
    const confirmation = newPasswordConfirmationSchema.safeParse(values);
    if (!request.success || !confirmation.success) {
      setFields({
        ...(confirmation.success ? {} : zodFieldErrors(confirmation.error)),
        ...(request.success ? {} : zodFieldErrors(request.error)),
      });
      submitFocus.settled();
      return;
    }
    try {
      await changePassword.mutateAsync(request.data);
      setValues(empty);
      setChanged(true);
    } catch (caught) {
      const named = apiFieldErrors(caught);
      if (named && !named._) setFields(named);
      else setError(authErrorMessage(caught));
    }
    submitFocus.settled();
  }

  const field = (name: keyof typeof empty, label: string, autoComplete: string) => {
    const key = fields[name];
    return (
      <TextField
        id={`settings-${name}`}
        name={name}
        type="password"
        autoComplete={autoComplete}
        label={label}
        value={values[name]}
        error={key ? t(key) : null}
        {...(name === 'newPassword' && { hint: t('auth.passwordHint') })}
        onChange={(event) => {
          setValues({ ...values, [name]: event.target.value });
          setChanged(false);
        }}
      />
    );
  };

  return (
    <SettingsCard
      title={t('settings.password.title')}
      description={t('settings.password.description')}
    >
      <form
        ref={submitFocus.container}
        className="space-y-4"
        onSubmit={(event) => void onSubmit(event)}
        noValidate
      >
        {/* Lets password managers tie the new password to the account. */}
        <input type="text" name="username" autoComplete="username" value={email} hidden readOnly />
        {field('currentPassword', t('settings.password.current'), 'current-password')}
        {field('newPassword', t('settings.password.new'), 'new-password')}
        {field('confirmPassword', t('settings.password.confirm'), 'new-password')}
        {error && <Alert tone="error">{'key' in error ? t(error.key) : error.text}</Alert>}
        {changed && <Alert tone="success">{t('settings.password.changed')}</Alert>}
        <Button type="submit" pending={changePassword.isPending}>
          {t('settings.password.submit')}
        </Button>
      </form>
    </SettingsCard>
  );
}
