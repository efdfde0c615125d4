import type { Generated } from 'kysely';
import type { LeasedWorkColumns } from '../../db/lease.ts';
import type { StoryFailReason, StoryStatus } from '@cadence/shared/schemas/story';

/** A story; its render's lease and unfinished runs (db/lease.ts) come with LeasedWorkColumns. */
export interface StoryTable extends LeasedWorkColumns {
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
  created_at: Generated<Date>;
  finished_at: Date | null;
}

declare module '../../db/schema.ts' {
  interface Database {
    stories: StoryTable;
  }
}
