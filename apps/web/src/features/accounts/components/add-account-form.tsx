import type { Account } from '@cadence/shared/schemas/account';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { TranslationKey } from '@cadence/shared/translation-key';
import { Button } from '../../../components/ui/button.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useCreateAccount } from '../api/mutate-accounts.ts';
import { hasText } from '../../../lib/i18n.ts';

/** The field's error: the server's per-field key when it sent one we know, else its code's text. */
function errorKey(error: unknown): TranslationKey {
  if (!(error instanceof ApiError)) return 'errors.internal';
  const fieldKey = error.fields.username;
  return fieldKey && hasText(fieldKey) ? fieldKey : error.translationKey;
}

export function AddAccountForm({
  onAdded,
  onCancel,
}: {
  onAdded: (account: Account) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const create = useCreateAccount();
  const [username, setUsername] = useState('');
  const inputRef = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const hintId = useId();
  const errorId = useId();

  useEffect(() => {
    inputRef.current?.focus();
  }, []);

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    // Spec §5: an empty name (after trimming) is ignored, silently.
    if (!username.trim() || create.isPending) return;
    create.mutate(username, {
      onSuccess: (account) => {
        setUsername('');
        onAdded(account);
      },
    });
  }

  const error = create.error ? t(errorKey(create.error)) : null;

  return (
    <form
      onSubmit={onSubmit}
      aria-label={t('accounts.add.formLabel')}
      noValidate
      className="mb-8 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-6"
    >
      <label htmlFor={inputId} className="mb-1.5 block text-sm font-medium text-slate-700">
        {t('accounts.add.username')}
      </label>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start">
        <div className="flex-1">
          <div
            className={`flex rounded-lg bg-white shadow-sm ring-1 ring-inset focus-within:ring-2 focus-within:ring-inset ${error ? 'ring-red-400 focus-within:ring-red-500' : 'ring-slate-300 focus-within:ring-brand-500'}`}
          >
            <span
              className="flex select-none items-center pl-3.5 text-slate-500 sm:text-sm"
              aria-hidden="true"
            >
              @
            </span>
            <input
              ref={inputRef}
              id={inputId}
              name="username"
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              maxLength={64}
              placeholder={t('accounts.add.usernamePlaceholder')}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${errorId} ${hintId}` : hintId}
              className="block w-full min-w-0 flex-1 rounded-lg border-0 bg-transparent py-2.5 pl-1 pr-3.5 text-slate-900 placeholder:text-slate-500 focus:outline-none focus:ring-0 sm:text-sm"
              value={username}
              onChange={(event) => {
                setUsername(event.target.value);
                if (create.error) create.reset();
              }}
              onKeyDown={(event) => {
                if (event.key === 'Escape') onCancel();
              }}
            />
          </div>
          {error && (
            <p id={errorId} role="alert" className="mt-1.5 text-sm text-red-700">
              {error}
            </p>
          )}
          <p id={hintId} className="mt-1.5 text-xs text-slate-500">
            {t('accounts.add.hint')}
          </p>
        </div>
        <div className="flex gap-2">
          <Button type="submit" disabled={create.isPending} className="flex-1 sm:flex-none">
            {create.isPending && <Spinner className="h-4 w-4" />}
            {t('accounts.add.submit')}
          </Button>
          <Button variant="secondary" onClick={onCancel} className="flex-1 sm:flex-none">
            {t('accounts.add.cancel')}
          </Button>
        </div>
      </div>
    </form>
  );
}
