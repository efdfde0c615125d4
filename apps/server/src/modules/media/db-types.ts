import type { ColumnType, Generated } from 'kysely';
import type { MediaKind } from '@cadence/shared/schemas/media';
import type { ProbedVideo } from '../../media/probe.ts';

export interface MediaTable {
  id: string;
  user_id: string;
  kind: MediaKind;
  original_name: string;
  content_type: string;
  size_bytes: number;
  storage_key: string;
  thumbnail_key: string | null;
  duration_seconds: number;
  width: number;
  height: number;
  has_audio: boolean;
  probe: ColumnType<ProbedVideo, string, string>;
  created_at: Generated<Date>;
}

/** Quota space held by an upload that is not media yet (migration 0010). */
export interface UploadReservationTable {
  upload_id: string;
  user_id: string;
  declared_bytes: number;
  created_at: Generated<Date>;
  expires_at: Date;
}

declare module '../../db/schema.ts' {
  interface Database {
    media: MediaTable;
    upload_reservations: UploadReservationTable;
  }
}
