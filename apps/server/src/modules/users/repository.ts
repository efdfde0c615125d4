import type { Language } from '@cadence/shared/errors';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import './db-types.ts';
import { createEmailChangeQueries } from './email-change-queries.ts';

/** SQL for users: their profile and settings, and their pending email changes. */
export function createUserRepository(db: Kysely<Database>) {
  return {
    ...createEmailChangeQueries(db),

    findById(id: string) {
      return db
        .selectFrom('user')
        .select([
          'id',
          'name',
          'email',
          'emailVerified',
          'isPro',
          'preferredLanguage',
          'timeZone',
          'createdAt',
        ])
        .where('id', '=', id)
        .executeTakeFirst();
    },

    async setLanguage(id: string, language: Language): Promise<void> {
      await db
        .updateTable('user')
        .set({ preferredLanguage: language, updatedAt: new Date() })
        .where('id', '=', id)
        .execute();
    },

    /** The user's IANA zone; null when none was set (or no such user). */
    async timeZoneOf(id: string): Promise<string | null> {
      const row = await db
        .selectFrom('user')
        .select('timeZone')
        .where('id', '=', id)
        .executeTakeFirst();
      return row?.timeZone ?? null;
    },

    async setTimeZone(id: string, timeZone: string): Promise<void> {
      await db
        .updateTable('user')
        .set({ timeZone, updatedAt: new Date() })
        .where('id', '=', id)
        .execute();
    },

    /** Returns false when no user has this email. */
    async setProByEmail(email: string, isPro: boolean): Promise<boolean> {
      const result = await db
        .updateTable('user')
        .set({ isPro, updatedAt: new Date() })
        .where('email', '=', email.trim().toLowerCase())
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    async isPro(id: string): Promise<boolean> {
      const row = await db
        .selectFrom('user')
        .select('isPro')
        .where('id', '=', id)
        .executeTakeFirst();
      return row?.isPro ?? false;
    },
  };
}

export type UserRepository = ReturnType<typeof createUserRepository>;
