import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { noLiveJob } from '../../jobs/orphans.ts';
import './db-types.ts';
import type { MailKind, MailOutboxTable } from './db-types.ts';

export type MailOutboxRow = Selectable<MailOutboxTable>;

/** Outbox SQL. Times come from the database clock, so every process agrees on leases. */
export function createMailRepository(db: Kysely<Database>) {
  return {
    async insert(row: Insertable<MailOutboxTable>): Promise<void> {
      await db.insertInto('mail_outbox').values(row).execute();
    },

    /**
     * Takes a message for delivery: not sent, not given up, and not being delivered by a worker
     * whose lease (`leaseSeconds`) still runs. Undefined otherwise, which makes a duplicate or
     * late job harmless.
     */
    claim(id: string, leaseSeconds: number) {
      return db
        .updateTable('mail_outbox')
        .set((eb) => ({ attempts: eb('attempts', '+', 1), sending_since: sql`now()` }))
        .where('id', '=', id)
        .where('sent_at', 'is', null)
        .where('failed_at', 'is', null)
        .where((eb) =>
          eb.or([
            eb('sending_since', 'is', null),
            eb('sending_since', '<', sql<Date>`now() - make_interval(secs => ${leaseSeconds})`),
          ]),
        )
        .returningAll()
        .executeTakeFirst();
    },

    find(id: string) {
      return db.selectFrom('mail_outbox').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /** Delivered: the content (and any link in it) is erased. */
    async markSent(id: string): Promise<void> {
      await db
        .updateTable('mail_outbox')
        .set({ sent_at: sql`now()`, sending_since: null, content_enc: null, last_error: null })
        .where('id', '=', id)
        .execute();
    },

    /** Deletes a settled (sent or given up) message of one of `kinds`: nothing of it stays. */
    async forgetSettled(id: string, kinds: readonly MailKind[]): Promise<void> {
      await db
        .deleteFrom('mail_outbox')
        .where('id', '=', id)
        .where('kind', 'in', kinds)
        .where((eb) => eb.or([eb('sent_at', 'is not', null), eb('failed_at', 'is not', null)]))
        .execute();
    },

    /** This attempt failed: the next one may claim the row at once. */
    async releaseAfterError(id: string, error: string): Promise<void> {
      await db
        .updateTable('mail_outbox')
        .set({ sending_since: null, last_error: error.slice(0, 1000) })
        .where('id', '=', id)
        .where('sent_at', 'is', null)
        .execute();
    },

    /** No more attempts: the row says why, and its content is erased. */
    async markFailed(id: string, error: string): Promise<void> {
      await db
        .updateTable('mail_outbox')
        .set({
          failed_at: sql`now()`,
          sending_since: null,
          content_enc: null,
          last_error: error.slice(0, 1000),
        })
        .where('id', '=', id)
        .where('sent_at', 'is', null)
        .execute();
    },

    /**
     * Messages neither sent nor given up, queued before `createdBefore`, that no live job of
     * `queue` will ever deliver (jobs/orphans.ts): without this they stayed unsent forever, their
     * content (maybe a sign-in link) kept until the 30-day purge.
     */
    orphaned(createdBefore: Date, queue: string) {
      return db
        .selectFrom('mail_outbox')
        .select('id')
        .where('sent_at', 'is', null)
        .where('failed_at', 'is', null)
        .where('created_at', '<', createdBefore)
        .where(noLiveJob(queue, sql.ref('mail_outbox.id')))
        .execute();
    },

    /** Messages of one kind queued for an address in the last `withinSeconds` seconds. */
    async countRecent(kind: MailKind, toAddress: string, withinSeconds: number): Promise<number> {
      const { count } = await db
        .selectFrom('mail_outbox')
        .select((eb) => eb.fn.countAll<string>().as('count'))
        .where('kind', '=', kind)
        .where('to_address', '=', toAddress)
        .where('created_at', '>', sql<Date>`now() - make_interval(secs => ${withinSeconds})`)
        .executeTakeFirstOrThrow();
      return Number(count);
    },

    /** Deletes rows older than `olderThanDays` days; returns how many. */
    async purge(olderThanDays: number): Promise<number> {
      const result = await db
        .deleteFrom('mail_outbox')
        .where('created_at', '<', sql<Date>`now() - make_interval(days => ${olderThanDays})`)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

export type MailRepository = ReturnType<typeof createMailRepository>;
