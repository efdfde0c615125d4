import type { Generated } from 'kysely';
import type { StoryFailReason, StoryStatus } from '@cadence/shared/schemas/story';

export interface StoryTable {
  id: string;
  user_id: string;
  status: Generated<StoryStatus>;
  progress: Generated<number>;
  top_media_id: string | null;
  bottom_media_id: string | null;
  mix_bottom_audio: boolean;
  result_media_id: string | null;
  fail_reason: StoryFailReason | null;
  position: Generated<number>;
  /** The render's lease (db/lease.ts, migration 0012). */
  lease_owner: string | null;
  lease_until: Date | null;
  /** Runs started in a row that never finished (migration 0011). */
  unfinished_runs: Generated<number>;
  created_at: Generated<Date>;
  finished_at: Date | null;
}

declare module '../../db/schema.ts' {
  interface Database {
    stories: StoryTable;
  }
}
