import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { AuthorisedProfile, TokenUpdate } from './repository.ts';
import './db-types.ts';

/** Grants held while the person chooses what to do with another account's authorisation. */
export function createPendingConnectionQueries(db: Kysely<Database>) {
  return {
    insertPendingConnection(row: {
      userId: string;
      accountId: string;
      profile: AuthorisedProfile;
      tokens: TokenUpdate;
      expiresAt: Date;
    }) {
      return db
        .insertInto('tiktok_pending_connections')
        .values({
          user_id: row.userId,
          account_id: row.accountId,
          open_id: row.profile.openId,
          username: row.profile.username,
          display_name: row.profile.displayName,
          avatar_url: row.profile.avatarUrl,
          access_token_enc: row.tokens.accessTokenEnc,
          refresh_token_enc: row.tokens.refreshTokenEnc,
          access_token_expires_at: row.tokens.accessTokenExpiresAt,
          refresh_token_expires_at: row.tokens.refreshTokenExpiresAt,
          scopes: row.tokens.scopes,
          expires_at: row.expiresAt,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    /** The user's unexpired pending connection, left in place (what the warning shows). */
    findPendingConnection(userId: string, id: string, now: Date) {
      return db
        .selectFrom('tiktok_pending_connections')
        .selectAll()
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .where('expires_at', '>', now)
        .executeTakeFirst();
    },

    /** Deletes and returns the user's unexpired pending connection: keep or cancel happens once. */
    consumePendingConnection(userId: string, id: string, now: Date) {
      return db
        .deleteFrom('tiktok_pending_connections')
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .where('expires_at', '>', now)
        .returningAll()
        .executeTakeFirst();
    },

    /** Deletes the expired pending connections and returns them (their tokens are to be revoked). */
    purgeExpiredPendingConnections(now: Date) {
      return db
        .deleteFrom('tiktok_pending_connections')
        .where('expires_at', '<=', now)
        .returningAll()
        .execute();
    },
  };
}
