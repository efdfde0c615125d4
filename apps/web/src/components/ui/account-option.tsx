import { AccountAvatar } from './account-avatar.tsx';

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
