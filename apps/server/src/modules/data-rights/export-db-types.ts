import type { DataExportStatus } from '@cadence/shared/schemas/user';
import type { ColumnType, Generated } from 'kysely';

/** One 'download my data' archive (migration 0023). */
export interface DataExportTable {
  id: Generated<string>;
  user_id: string;
  status: ColumnType<DataExportStatus, DataExportStatus | undefined, DataExportStatus>;
  progress: Generated<number>;
  storage_key: string | null;
  /** bigint: PostgreSQL drivers return it as a string. */
  size_bytes: ColumnType<string | number | null, number | null, number | null>;
  error: string | null;
  created_at: Generated<Date>;
  ready_at: Date | null;
  expires_at: Date | null;
}

declare module '../../db/schema.ts' {
  interface Database {
    data_exports: DataExportTable;
  }
}
