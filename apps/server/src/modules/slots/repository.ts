import type { WeeklySlot } from '@cadence/shared/schedule/slots';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import '../schedules/db-types.ts';

/** SQL for posting slots. Callers check that the account is the user's first. */
export function createPostingSlotRepository(db: Kysely<Database>) {
  return {
    /** The account's weekly slots, by weekday then time. */
    async list(accountId: string): Promise<WeeklySlot[]> {
      return db
        .selectFrom('posting_slots')
        .select(['weekday', 'time'])
        .where('account_id', '=', accountId)
        .orderBy('weekday')
        .orderBy('time')
        .execute();
    },

    /** Replaces the account's slots with `slots` (already normalized: no duplicates). */
    async replace(accountId: string, slots: readonly WeeklySlot[]): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('posting_slots').where('account_id', '=', accountId).execute();
        if (slots.length === 0) return;
        await trx
          .insertInto('posting_slots')
          .values(slots.map((slot) => ({ account_id: accountId, ...slot })))
          .execute();
      });
    },
  };
}

export type PostingSlotRepository = ReturnType<typeof createPostingSlotRepository>;
