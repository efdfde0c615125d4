// A person's change of email address: pending until the link sent to the new address is opened.
import type { Kysely } from 'kysely';
import { isUniqueViolation } from '../../db/pg-errors.ts';
import type { Database } from '../../db/schema.ts';
import './db-types.ts';

export function createEmailChangeQueries(db: Kysely<Database>) {
  return {
    /** The address waiting for its confirmation link to be opened, or null. */
    async pendingEmailOf(id: string): Promise<string | null> {
      const row = await db
        .selectFrom('email_changes')
        .select('new_email')
        .where('user_id', '=', id)
        .where('expires_at', '>', new Date())
        .executeTakeFirst();
      return row?.new_email ?? null;
    },

    async emailTaken(email: string): Promise<boolean> {
      const row = await db
        .selectFrom('user')
        .select('id')
        .where('email', '=', email)
        .executeTakeFirst();
      return row !== undefined;
    },

    /** Records (or replaces) the person's pending change: one at a time. */
    async savePendingEmail(
      id: string,
      change: { newEmail: string; tokenHash: string; expiresAt: Date },
    ): Promise<void> {
      const values = {
        new_email: change.newEmail,
        token_hash: change.tokenHash,
        expires_at: change.expiresAt,
      };
      await db
        .insertInto('email_changes')
        .values({ user_id: id, ...values })
        .onConflict((conflict) =>
          conflict.column('user_id').doUpdateSet({ ...values, created_at: new Date() }),
        )
        .execute();
    },

    /**
     * Uses a change link once: the pending row is deleted and, if the new address is still free,
     * becomes the person's (verified: the link proved they read it). Returns the person's old
     * and new addresses, or null for an unknown, used or expired link, or a taken address —
     * also one taken at the same moment (two links to one address opened at once, or a sign-up),
     * which the unique index refuses after the check here: that transaction rolls back whole.
     */
    async confirmEmailChange(
      tokenHash: string,
    ): Promise<{ userId: string; oldEmail: string; newEmail: string } | null> {
      try {
        return await db.transaction().execute(async (trx) => {
          const change = await trx
            .deleteFrom('email_changes')
            .where('token_hash', '=', tokenHash)
            .returningAll()
            .executeTakeFirst();
          if (!change || change.expires_at <= new Date()) return null;
          const user = await trx
            .selectFrom('user')
            .select('email')
            .where('id', '=', change.user_id)
            .executeTakeFirst();
          const taken = await trx
            .selectFrom('user')
            .select('id')
            .where('email', '=', change.new_email)
            .executeTakeFirst();
          if (!user || taken) return null;
          await trx
            .updateTable('user')
            .set({ email: change.new_email, emailVerified: true, updatedAt: new Date() })
            .where('id', '=', change.user_id)
            .execute();
          return { userId: change.user_id, oldEmail: user.email, newEmail: change.new_email };
        });
      } catch (error) {
        if (isUniqueViolation(error)) return null;
        throw error;
      }
    },
  };
}
