// bigint columns come back as numbers: db/client.ts installs an INT8 parser for both drivers.
import type { ColumnType, Generated } from 'kysely';
import type {
  CommercialContent,
  PostStatus,
  PublishType,
  SpacedIntervalInput,
} from '@cadence/shared/schemas/schedule';

export interface ScheduleTable {
  id: Generated<string>;
  user_id: string;
  /** Null once the account was deleted: its schedules and posts stay in the history. */
  account_id: string | null;
  publish_type: PublishType;
  time_zone: string;
  date: string | null;
  time: string | null;
  spaced_interval: ColumnType<SpacedIntervalInput | null, string | null, string | null>;
  privacy_level: string;
  allow_comment: boolean;
  allow_duet: boolean;
  allow_stitch: boolean;
  commercial_content: ColumnType<CommercialContent, string, string>;
  created_at: Generated<Date>;
}

export interface PostTable {
  id: Generated<string>;
  schedule_id: string;
  user_id: string;
  /** Null once the account was deleted; account_username still says which it was. */
  account_id: string | null;
  account_username: string;
  media_id: string;
  title: string;
  due_at: Date;
  randomized: Generated<boolean>;
  jitter_minutes: Generated<number>;
  status: Generated<PostStatus>;
  fail_reason: string | null;
  attempt: Generated<number>;
  /** Publisher runs started in a row that never released the post (migration 0011). */
  unfinished_runs: Generated<number>;
  lease_owner: string | null;
  lease_until: Date | null;
  wake_at: Date;
  init_started_at: Date | null;
  publish_id: string | null;
  upload_url: string | null;
  upload_url_expires_at: Date | null;
  video_size: number | null;
  chunk_size: number | null;
  total_chunk_count: number | null;
  uploaded_bytes: Generated<number>;
  poll_count: Generated<number>;
  tiktok_post_id: string | null;
  published_at: Date | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface TikTokInitPacingTable {
  account_id: string;
  recent_inits: Generated<Date[]>;
}

declare module '../../db/schema.ts' {
  interface Database {
    schedules: ScheduleTable;
    posts: PostTable;
    tiktok_init_pacing: TikTokInitPacingTable;
  }
}
