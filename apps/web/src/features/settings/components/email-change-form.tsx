import { changeEmailSchema, type Me } from '@cadence/shared/schemas/user';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { useErrorText } from '../../../lib/error-text.ts';
import { apiFieldErrors, zodFieldErrors, type FieldErrors } from '../../../lib/field-errors.ts';
import { useSubmitFocus } from '../../../lib/submit-focus.ts';
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
  // Held here, not read from the mutation: its state arrives a render after the focus moves.
  const [refusal, setRefusal] = useState<unknown>(null);
  const submitFocus = useSubmitFocus<HTMLDivElement>();
  const changeButton = useRef<HTMLButtonElement>(null);
  // Opening and cancelling swap the button and the form: focus follows to the one shown.
  const toggled = useRef(false);
  useEffect(() => {
    if (!toggled.current) return;
    toggled.current = false;
    if (open) document.getElementById('settings-new-email')?.focus();
    else changeButton.current?.focus();
  }, [open]);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setFields({});
    setSent(false);
    setRefusal(null);
    const parsed = changeEmailSchema.safeParse({ newEmail, password });
    if (!parsed.success) {
      setFields(zodFieldErrors(parsed.error));
      submitFocus.settled();
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
      else setRefusal(caught);
    }
    submitFocus.settled();
  }

  return (
    <div ref={submitFocus.container} className="space-y-3">
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
        <NewEmailForm
          newEmail={newEmail}
          onNewEmailChange={setNewEmail}
          password={password}
          onPasswordChange={setPassword}
          fields={fields}
          refusal={refusal !== null ? errorText(refusal) : null}
          pending={change.isPending}
          onSubmit={(event) => void onSubmit(event)}
          onCancel={() => {
            toggled.current = true;
            setOpen(false);
          }}
        />
      ) : (
        <Button
          ref={changeButton}
          type="button"
          variant="secondary"
          onClick={() => {
            toggled.current = true;
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

/** The new address and the password that confirms it; what is typed stays when cancelled. */
function NewEmailForm({
  newEmail,
  onNewEmailChange,
  password,
  onPasswordChange,
  fields,
  refusal,
  pending,
  onSubmit,
  onCancel,
}: {
  newEmail: string;
  onNewEmailChange: (newEmail: string) => void;
  password: string;
  onPasswordChange: (password: string) => void;
  fields: FieldErrors;
  /** Why the server refused, other than a field's error. */
  refusal: string | null;
  pending: boolean;
  onSubmit: (event: FormEvent) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  return (
    <form
      className="space-y-4 rounded-xl bg-slate-50 p-4 ring-1 ring-inset ring-slate-200"
      onSubmit={onSubmit}
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
        onChange={(event) => onNewEmailChange(event.target.value)}
      />
      <TextField
        id="settings-email-password"
        name="password"
        type="password"
        autoComplete="current-password"
        label={t('settings.email.password')}
        value={password}
        error={fields.password ? t(fields.password) : null}
        onChange={(event) => onPasswordChange(event.target.value)}
      />
      {refusal !== null && <Alert tone="error">{refusal}</Alert>}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" pending={pending}>
          {t('settings.email.submit')}
        </Button>
        <Button type="button" variant="ghost" onClick={onCancel}>
          {t('settings.email.cancel')}
        </Button>
      </div>
    </form>
  );
}
