// bigint columns come back as numbers: db/client.ts installs an INT8 parser for both drivers.
import type { Generated } from 'kysely';

type BigIntColumn = Generated<number>;

export interface AnalyticsAccountTable {
  id: Generated<string>;
  user_id: string;
  open_id: string;
  account_id: string | null;
  username: string;
  display_name: string | null;
  avatar_url: string | null;
  list_cursor: number | null;
  list_pass_newest: number | null;
  known_newest: number | null;
  next_sync_at: Generated<Date>;
  last_synced_at: Date | null;
  last_error: string | null;
  failures: Generated<number>;
  video_count: Generated<number>;
  lease_owner: string | null;
  lease_until: Date | null;
  created_at: Generated<Date>;
}

export interface AnalyticsVideoTable {
  id: Generated<string>;
  analytics_account_id: string;
  user_id: string;
  video_id: string;
  post_id: string | null;
  title: Generated<string>;
  cover_image_url: string | null;
  share_url: string | null;
  duration: number | null;
  posted_at: Date;
  view_count: BigIntColumn;
  like_count: BigIntColumn;
  comment_count: BigIntColumn;
  share_count: BigIntColumn;
  views_at_24h: number | null;
  first_seen_at: Generated<Date>;
  last_snapshot_at: Date | null;
  next_snapshot_at: Date;
}

export interface AnalyticsVideoSnapshotTable {
  video_row_id: string;
  taken_at: Date;
  view_count: number;
  like_count: number;
  comment_count: number;
  share_count: number;
}

export interface AnalyticsAccountSnapshotTable {
  analytics_account_id: string;
  taken_at: Date;
  follower_count: number | null;
  following_count: number | null;
  likes_count: number | null;
  video_count: number | null;
  view_total: number;
  like_total: number;
  comment_total: number;
  share_total: number;
}

declare module '../../db/schema.ts' {
  interface Database {
    analytics_accounts: AnalyticsAccountTable;
    analytics_videos: AnalyticsVideoTable;
    analytics_video_snapshots: AnalyticsVideoSnapshotTable;
    analytics_account_snapshots: AnalyticsAccountSnapshotTable;
  }
}
