import type { Generated } from 'kysely';

export interface TikTokTokenRefreshLockTable {
  account_id: string;
  /** A held lock (db/lease.ts, migration 0012). */
  lease_owner: string;
  lease_until: Date;
}

/** A grant for another TikTok account than the card's, waiting for keep or cancel (migration 0022). */
export interface TikTokPendingConnectionTable {
  id: Generated<string>;
  user_id: string;
  account_id: string;
  open_id: string;
  username: string | null;
  display_name: string | null;
  avatar_url: string | null;
  access_token_enc: string;
  refresh_token_enc: string;
  access_token_expires_at: Date;
  refresh_token_expires_at: Date;
  scopes: string[];
  expires_at: Date;
  created_at: Generated<Date>;
}

/** TikTok's last successful creator_info options for an account (migration 0029). */
export interface TikTokCreatorOptionsTable {
  account_id: string;
  /** The TikTok user the answer was about: a card reconnected to another one does not use it. */
  open_id: string;
  privacy_level_options: string[];
  comment_disabled: boolean;
  duet_disabled: boolean;
  stitch_disabled: boolean;
  max_video_post_duration_sec: number | null;
  fetched_at: Date;
}

declare module '../../db/schema.ts' {
  interface Database {
    tiktok_token_refresh_locks: TikTokTokenRefreshLockTable;
    tiktok_pending_connections: TikTokPendingConnectionTable;
    tiktok_creator_options: TikTokCreatorOptionsTable;
  }
}
