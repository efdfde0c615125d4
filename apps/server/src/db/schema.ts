import type { ColumnType, Generated } from 'kysely';

/** Kysely's view of the tables; migrations in ./migrations are the source of truth. */
export interface UserTable {
  id: string;
  name: string;
  email: string;
  emailVerified: boolean;
  image: string | null;
  createdAt: ColumnType<Date, Date | undefined, never>;
  updatedAt: Date;
  isPro: Generated<boolean>;
  preferredLanguage: Generated<'fr' | 'en'>;
  /** IANA zone; null until the browser sent one (migration 0014). */
  timeZone: string | null;
}

export interface SessionTable {
  id: string;
  expiresAt: Date;
  token: string;
  createdAt: Date;
  updatedAt: Date;
  ipAddress: string | null;
  userAgent: string | null;
  userId: string;
}

export interface SchemaMigrationTable {
  version: number;
  name: string;
  applied_at: Generated<Date>;
}

export interface TikTokAccountTable {
  id: Generated<string>;
  user_id: string;
  username: string;
  open_id: string | null;
  display_name: string | null;
  avatar_url: string | null;
  scopes: Generated<string[]>;
  status: Generated<'not_connected' | 'connected' | 'reconnect_needed'>;
  access_token_enc: string | null;
  refresh_token_enc: string | null;
  access_token_expires_at: Date | null;
  refresh_token_expires_at: Date | null;
  default_privacy_level: string | null;
  allow_comment: Generated<boolean>;
  allow_duet: Generated<boolean>;
  allow_stitch: Generated<boolean>;
  connected_at: Date | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface OAuthStateTable {
  state_hash: string;
  user_id: string;
  account_id: string;
  code_verifier_enc: string;
  expires_at: Date;
  created_at: Generated<Date>;
}

export interface Database {
  user: UserTable;
  session: SessionTable;
  schema_migrations: SchemaMigrationTable;
  tiktok_accounts: TikTokAccountTable;
  oauth_states: OAuthStateTable;
}
