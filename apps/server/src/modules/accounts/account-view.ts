import { accountSettingsSchema, type Account } from '@cadence/shared/schemas/account';
import type { AccountRow } from './repository.ts';

/** An account card as the API shows it, with its pending posts' count and next due time. */
export function toAccount(
  row: AccountRow,
  stats?: { count: number; nextDueAt: Date | null },
): Account {
  return {
    id: row.id,
    username: row.username,
    status: row.status,
    displayName: row.display_name,
    avatarUrl: row.avatar_url,
    openId: row.open_id,
    scopes: row.scopes,
    canPublish: row.scopes.includes('video.publish'),
    scheduledCount: stats?.count ?? 0,
    nextPostAt: stats?.nextDueAt?.toISOString() ?? null,
    settings: accountSettingsSchema.parse({
      defaultPrivacyLevel: row.default_privacy_level,
      allowComment: row.allow_comment,
      allowDuet: row.allow_duet,
      allowStitch: row.allow_stitch,
    }),
    connectedAt: row.connected_at?.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
  };
}
