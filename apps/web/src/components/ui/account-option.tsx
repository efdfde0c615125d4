import { AccountAvatar } from './account-avatar.tsx';
import type { PickerOption } from './picker.tsx';

/** A `Picker` choice that is an account, or the empty choice ('all', 'choose…') with none. */
export interface AccountChoice<TAccount> extends PickerOption {
  account: TAccount | null;
}

/** The empty choice (key ''), then one choice per account: type-ahead on the bare username. */
export function accountChoices<TAccount extends { id: string; username: string }>(
  accounts: readonly TAccount[],
  emptyTypeahead: string,
): AccountChoice<TAccount>[] {
  return [
    { key: '', typeahead: emptyTypeahead, account: null },
    ...accounts.map((account) => ({ key: account.id, typeahead: account.username, account })),
  ];
}

/**
 * An account as a `Picker` choice: its picture, then its name and what the screen adds about it
 * ('0/15 aujourd'hui'), as one run of text that wraps anywhere (a username has no spaces and may
 * be long), the detail kept on one line.
 */
export function AccountOption({
  account,
  name = `@${account.username}`,
  detail,
}: {
  account: { username: string; displayName: string | null; avatarUrl: string | null };
  /** What the account is called here; '@username' unless the screen says more. */
  name?: string;
  detail?: string | undefined;
}) {
  return (
    <span className="flex items-center gap-2">
      <AccountAvatar
        username={account.username}
        displayName={account.displayName}
        avatarUrl={account.avatarUrl}
        size="sm"
      />
      <span className="min-w-0 flex-1 [overflow-wrap:anywhere]">
        <span className="font-medium">{name}</span>
        {detail && (
          <>
            {' '}
            <span className="whitespace-nowrap text-slate-500">· {detail}</span>
          </>
        )}
      </span>
    </span>
  );
}
