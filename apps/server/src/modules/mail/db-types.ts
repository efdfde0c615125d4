import type { Language } from '@cadence/shared/errors';
import type { Generated } from 'kysely';

/** What a message is about; each kind has its template in mail/templates.ts. */
export type MailKind =
  | 'password-reset'
  | 'notification'
  | 'notification-digest'
  | 'data-export'
  | 'email-change'
  | 'email-changed'
  | 'email-verification'
  | 'account-deleted';

export interface MailOutboxTable {
  id: string;
  user_id: string | null;
  kind: MailKind;
  to_address: string;
  language: Language;
  subject: string;
  /** The rendered message (TokenCipher); null once sent or given up. */
  content_enc: string | null;
  attempts: Generated<number>;
  sending_since: Date | null;
  last_error: string | null;
  created_at: Generated<Date>;
  sent_at: Date | null;
  failed_at: Date | null;
}

declare module '../../db/schema.ts' {
  interface Database {
    mail_outbox: MailOutboxTable;
  }
}
