import type { ColumnType, Generated } from 'kysely';
import type { LeasedWorkColumns } from '../../db/lease.ts';
import type { MemeFailReason, MemeLayout, MemeStatus } from '@cadence/shared/schemas/meme';

/** One extract as stored (jsonb): the API shape minus URLs, plus where its thumbnail is. */
export interface StoredExtract {
  index: number;
  startSeconds: number;
  endSeconds: number;
  score: number;
  peakSeconds: number;
  selected: boolean;
  /** Storage key of the JPEG, null when no frame could be grabbed. */
  thumbnailKey: string | null;
}

/** An analysis; its running stage's lease and unfinished runs come with LeasedWorkColumns. */
export interface MemeAnalysisTable extends LeasedWorkColumns {
  id: string;
  user_id: string;
  status: Generated<MemeStatus>;
  progress: Generated<number>;
  source_type: 'youtube' | 'media';
  source_url: string | null;
  source_media_id: string | null;
  source_key: string | null;
  layout: MemeLayout;
  title: string | null;
  duration_seconds: number | null;
  has_audio: boolean | null;
  shorter_than_target: Generated<boolean>;
  extracts: ColumnType<StoredExtract[] | null, string | null, string | null>;
  result_media_id: string | null;
  fail_reason: MemeFailReason | null;
  created_at: Generated<Date>;
  finished_at: Date | null;
}

declare module '../../db/schema.ts' {
  interface Database {
    meme_analyses: MemeAnalysisTable;
  }
}
