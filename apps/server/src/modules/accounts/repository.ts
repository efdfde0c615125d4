import type { Kysely, Selectable } from 'kysely';
import type { Database, TikTokAccountTable } from '../../db/schema.ts';
import { createAccountCardQueries } from './account-card-queries.ts';
import { createAccountTokenQueries } from './account-token-queries.ts';
import { createCreatorOptionsQueries } from './creator-options-queries.ts';
import type { TikTokPendingConnectionTable } from './db-types.ts';
import { createOAuthStateQueries } from './oauth-state-queries.ts';
import { createPendingConnectionQueries } from './pending-connection-queries.ts';

export type AccountRow = Selectable<TikTokAccountTable>;
export type PendingConnectionRow = Selectable<TikTokPendingConnectionTable>;

/** What TikTok told about the account a grant is for. */
export interface AuthorisedProfile {
  openId: string;
  /** Null when the person declined `user.info.profile`. */
  username: string | null;
  displayName: string | null;
  avatarUrl: string | null;
}

export interface TokenUpdate {
  accessTokenEnc: string;
  refreshTokenEnc: string;
  accessTokenExpiresAt: Date;
  refreshTokenExpiresAt: Date;
  scopes: string[];
}

/**
 * SQL for TikTok accounts, OAuth states and token refresh locks. Reads and writes the browser
 * causes are scoped by user id; the token service and the OAuth callback work by account id.
 */
export function createAccountRepository(db: Kysely<Database>) {
  return {
    ...accountQueries(db),

    /** Runs `work` in one transaction, with the queries bound to it. */
    transaction<TResult>(work: (accounts: AccountQueries) => Promise<TResult>): Promise<TResult> {
      return db.transaction().execute((trx) => work(accountQueries(trx)));
    },
  };
}

export type AccountQueries = ReturnType<typeof accountQueries>;

function accountQueries(db: Kysely<Database>) {
  return {
    ...createAccountCardQueries(db),
    ...createAccountTokenQueries(db),
    ...createCreatorOptionsQueries(db),
    ...createOAuthStateQueries(db),
    ...createPendingConnectionQueries(db),
  };
}

export type AccountRepository = ReturnType<typeof createAccountRepository>;
