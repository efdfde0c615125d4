import { notificationDataSchema, type Notification } from '@cadence/shared/schemas/notification';
import type { NotificationRow } from './repository.ts';

/** A notification as the bell shows it; data it cannot read is left out. */
export function toView(row: NotificationRow): Notification {
  const data = notificationDataSchema.safeParse(row.data);
  return {
    id: row.id,
    type: row.type,
    data: data.success ? data.data : {},
    createdAt: row.created_at.toISOString(),
    read: row.read_at !== null,
  };
}
