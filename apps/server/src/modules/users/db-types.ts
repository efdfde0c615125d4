import type { Generated } from 'kysely';

/** A pending email change (migration 0023): the token of the link sent to the new address. */
export interface EmailChangeTable {
  user_id: string;
  new_email: string;
  /** SHA-256 of the link's token: someone reading the database cannot confirm a change. */
  token_hash: string;
  expires_at: Date;
  created_at: Generated<Date>;
}

declare module '../../db/schema.ts' {
  interface Database {
    email_changes: EmailChangeTable;
  }
}
