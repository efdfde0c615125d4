import type { Account } from '@cadence/shared/schemas/account';

/** Accounts a post can go to right now. */
export function canScheduleTo(account: Account): boolean {
  return account.status === 'connected' && account.canPublish;
}
