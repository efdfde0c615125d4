import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../db/schema.ts';
import './db-types.ts';
import type { NotificationTable } from './db-types.ts';
import { createEmailSettingsQueries } from './email-settings-queries.ts';
import { createNotificationQueries } from './notification-queries.ts';

export type NotificationRow = Selectable<NotificationTable>;

export function createNotificationRepository(db: Kysely<Database>) {
  return {
    ...createNotificationQueries(db),
    ...createEmailSettingsQueries(db),
  };
}

export type NotificationRepository = ReturnType<typeof createNotificationRepository>;
