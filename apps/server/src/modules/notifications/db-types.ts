import type { NotificationType } from '@cadence/shared/schemas/notification';
import type { ColumnType, Generated } from 'kysely';

export interface NotificationTable {
  id: Generated<string>;
  user_id: string;
  type: NotificationType;
  /** One event, one row: a second insert with the same key (a retried job) adds nothing. */
  dedupe_key: string;
  data: ColumnType<Record<string, unknown>, string, string>;
  created_at: Generated<Date>;
  read_at: Date | null;
  mailed_at: Date | null;
}

export interface NotificationSettingsTable {
  user_id: string;
  email_types: NotificationType[];
  digest: boolean;
  updated_at: Generated<Date>;
  /** Local date (the person's zone) of the last digest run for them (migration 0024). */
  last_digest_on: ColumnType<Date | string | null, string | null | undefined, string | null>;
}

declare module '../../db/schema.ts' {
  interface Database {
    notifications: NotificationTable;
    notification_settings: NotificationSettingsTable;
  }
}
