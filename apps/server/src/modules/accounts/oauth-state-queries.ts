import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** OAuth states: single-use, bound to the user and the card Connect was clicked on. */
export function createOAuthStateQueries(db: Kysely<Database>) {
  return {
    async insertState(row: {
      stateHash: string;
      userId: string;
      accountId: string;
      codeVerifierEnc: string;
      expiresAt: Date;
    }) {
      await db
        .insertInto('oauth_states')
        .values({
          state_hash: row.stateHash,
          user_id: row.userId,
          account_id: row.accountId,
          code_verifier_enc: row.codeVerifierEnc,
          expires_at: row.expiresAt,
        })
        .execute();
    },

    /** Deletes and returns the state in one statement: a state can be consumed once, ever. */
    consumeState(stateHash: string) {
      return db
        .deleteFrom('oauth_states')
        .where('state_hash', '=', stateHash)
        .returningAll()
        .executeTakeFirst();
    },

    async purgeExpiredStates(now: Date): Promise<void> {
      await db.deleteFrom('oauth_states').where('expires_at', '<', now).execute();
    },
  };
}
