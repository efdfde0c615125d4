export interface TikTokTokenRefreshLockTable {
  account_id: string;
  owner: string;
  expires_at: Date;
}

declare module '../../db/schema.ts' {
  interface Database {
    tiktok_token_refresh_locks: TikTokTokenRefreshLockTable;
  }
}
