import { AppError } from '../../lib/app-error.ts';
import type { AccountRepository, AccountRow } from './repository.ts';

/** The user's account, or a 404. */
export async function requireOwnedAccount(
  accounts: AccountRepository,
  userId: string,
  id: string,
): Promise<AccountRow> {
  const row = await accounts.findForUser(userId, id);
  // Someone else's account and a missing one look the same: 404, nothing revealed.
  if (!row) throw new AppError('not_found', 'No such TikTok account');
  return row;
}
