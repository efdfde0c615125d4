// bigint columns come back as numbers: db/client.ts installs an INT8 parser for both drivers.
import type { ColumnType, Generated } from 'kysely';
import type {
  CommercialContent,
  Delivery,
  PostStatus,
  PublishType,
  SpacedIntervalInput,
} from '@cadence/shared/schemas/schedule';

/** How a schedule's times were chosen: the form's methods, or 'queue' (the account's posting slots). */
export type ScheduleKind = PublishType | 'queue';

export interface ScheduleTable {
  id: Generated<string>;
  user_id: string;
  /** Null once the account was deleted: its schedules and posts stay in the history. */
  account_id: string | null;
  publish_type: ScheduleKind;
  time_zone: string;
  date: string | null;
  time: string | null;
  spaced_interval: ColumnType<SpacedIntervalInput | null, string | null, string | null>;
  /** Null for inbox drafts: the creator sets it in the TikTok app (migration 0022). */
  privacy_level: string | null;
  allow_comment: boolean;
  allow_duet: boolean;
  allow_stitch: boolean;
  commercial_content: ColumnType<CommercialContent, string, string>;
  /** TikTok's 'AI-generated content' label (post_info.is_aigc; migration 0018). */
  is_aigc: Generated<boolean>;
  /** Migration 0019. */
  delivery: Generated<Delivery>;
  /** The Idempotency-Key of the request that made it, and that request's fingerprint (0026). */
  request_key: string | null;
  request_fingerprint: string | null;
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
  /** The frame the creator chose as cover (post_info.video_cover_timestamp_ms; migration 0018). */
  cover_timestamp_ms: number | null;
  due_at: Date;
  randomized: Generated<boolean>;
  jitter_minutes: Generated<number>;
  status: Generated<PostStatus>;
  fail_reason: string | null;
  attempt: Generated<number>;
  /** Publisher runs started in a row that never released the post (migration 0011). */
  unfinished_runs: Generated<number>;
  /** The worker process of the latest claim (migration 0020). */
  run_process: string | null;
  /** Runs in a row that died together with other posts in their process (migration 0020). */
  company_deaths: Generated<number>;
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
  /** Checks made for the public id of a completed post; null when not looking (migration 0019). */
  post_id_checks: number | null;
  published_at: Date | null;
  /**
   * When it became completed, failed or cancelled; null before. Kept by a trigger (migration
   * 0027): the history's order.
   */
  outcome_at: Date | null;
  /** Translation key: why Cadence moved the post by itself (migration 0014). */
  note: string | null;
  postponed_from: Date | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface DraftTable {
  id: Generated<string>;
  user_id: string;
  account_id: string | null;
  privacy_level: string | null;
  allow_comment: Generated<boolean>;
  allow_duet: Generated<boolean>;
  allow_stitch: Generated<boolean>;
  commercial_content: ColumnType<CommercialContent, string, string>;
  /** Migration 0022. */
  is_aigc: Generated<boolean>;
  delivery: Generated<Delivery>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface DraftVideoTable {
  draft_id: string;
  position: number;
  media_id: string;
  title: string;
  /** The cover frame chosen (migration 0022); null: TikTok picks. */
  cover_timestamp_ms: number | null;
}

export interface PostingSlotTable {
  account_id: string;
  weekday: number;
  time: string;
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
    drafts: DraftTable;
    draft_videos: DraftVideoTable;
    posting_slots: PostingSlotTable;
  }
}
