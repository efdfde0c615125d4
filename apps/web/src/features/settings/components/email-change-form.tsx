import { changeEmailSchema, type Me } from '@cadence/shared/schemas/user';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { useErrorText } from '../../../lib/error-text.ts';
import { apiFieldErrors, zodFieldErrors, type FieldErrors } from '../../../lib/field-errors.ts';
import { useChangeEmail } from '../api/change-email.ts';

/**
 * The address and 'Changer d'adresse email': a link goes to the new address and only opening it
 * changes anything. The answer never says whether the address belongs to someone else.
 */
export function EmailChangeForm({ me }: { me: Me }) {
  const { t } = useTranslation();
  const change = useChangeEmail();
  const errorText = useErrorText('errors.internal');
  const [open, setOpen] = useState(false);
  const [newEmail, setNewEmail] = useState('');
  const [password, setPassword] = useState('');
  const [fields, setFields] = useState<FieldErrors>({});
  const [sent, setSent] = useState(false);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setFields({});
    setSent(false);
    const parsed = changeEmailSchema.safeParse({ newEmail, password });
    if (!parsed.success) {
      setFields(zodFieldErrors(parsed.error));
      return;
    }
    try {
      await change.mutateAsync(parsed.data);
      setSent(true);
      setOpen(false);
      setNewEmail('');
      setPassword('');
    } catch (caught) {
      const named = apiFieldErrors(caught);
      if (named && (named.newEmail || named.password)) setFields(named);
    }
  }

  return (
    <div className="space-y-3">
      <div>
        <p className="mb-1.5 text-sm font-medium text-slate-700">{t('settings.profile.email')}</p>
        <p className="break-all text-sm text-slate-900">{me.email}</p>
        {me.pendingEmail && (
          <p className="mt-1 text-sm text-slate-600 [overflow-wrap:anywhere]">
            {t('settings.email.pending', { email: me.pendingEmail })}
          </p>
        )}
      </div>
      {sent && <Alert tone="success">{t('settings.email.sent')}</Alert>}
      {open ? (
        <form
          className="space-y-4 rounded-xl bg-slate-50 p-4 ring-1 ring-inset ring-slate-200"
          onSubmit={(event) => void onSubmit(event)}
          noValidate
        >
          <TextField
            id="settings-new-email"
            name="newEmail"
            type="email"
            autoComplete="email"
            label={t('settings.email.newEmail')}
            value={newEmail}
            error={fields.newEmail ? t(fields.newEmail) : null}
            onChange={(event) => setNewEmail(event.target.value)}
          />
          <TextField
            id="settings-email-password"
            name="password"
            type="password"
            autoComplete="current-password"
            label={t('settings.email.password')}
            value={password}
            error={fields.password ? t(fields.password) : null}
            onChange={(event) => setPassword(event.target.value)}
          />
          {change.isError && !fields.newEmail && !fields.password && (
            <Alert tone="error">{errorText(change.error)}</Alert>
          )}
          <div className="flex flex-wrap gap-2">
            <Button type="submit" disabled={change.isPending}>
              {t('settings.email.submit')}
            </Button>
            <Button type="button" variant="ghost" onClick={() => setOpen(false)}>
              {t('settings.email.cancel')}
            </Button>
          </div>
        </form>
      ) : (
        <Button
          type="button"
          variant="secondary"
          onClick={() => {
            setOpen(true);
            setSent(false);
          }}
        >
          {t('settings.email.change')}
        </Button>
      )}
    </div>
  );
}
