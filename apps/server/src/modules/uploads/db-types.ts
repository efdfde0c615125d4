export interface UploadLockTable {
  upload_id: string;
  owner: string;
  expires_at: Date;
}

declare module '../../db/schema.ts' {
  interface Database {
    upload_locks: UploadLockTable;
  }
}
