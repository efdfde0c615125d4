export interface TikTokTokenRefreshLockTable {
  account_id: string;
  /** A held lock (db/lease.ts, migration 0012). */
  lease_owner: string;
  lease_until: Date;
}

declare module '../../db/schema.ts' {
  interface Database {
    tiktok_token_refresh_locks: TikTokTokenRefreshLockTable;
  }
}
