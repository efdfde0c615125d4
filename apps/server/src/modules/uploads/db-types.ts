export interface UploadLockTable {
  upload_id: string;
  /** A held lock (db/lease.ts, migration 0012). */
  lease_owner: string;
  lease_until: Date;
}

declare module '../../db/schema.ts' {
  interface Database {
    upload_locks: UploadLockTable;
  }
}
