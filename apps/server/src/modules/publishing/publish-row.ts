import type { PostToPublish } from '../../platforms/driver.ts';
import type { GrantSource } from '../accounts/token-service.ts';
import type { PostRow } from '../schedules/repository.ts';

/** A claimed post with what publishing it needs: the video and the schedule's settings. */
export type PublishRow = PostRow &
  PostToPublish & {
    storage_key: string;
    content_type: string;
    /** Whose days the daily cap counts in: the user's time zone, else the schedule's. */
    zone?: string;
    /** The account's token columns as the claim read them (null: no account). */
    account_status?: GrantSource['status'] | null;
    access_token_enc?: string | null;
    refresh_token_enc?: string | null;
    access_token_expires_at?: Date | null;
    /** The due time on the database's clock (epoch ms, to the microsecond), as the claim read it. */
    due_at_ms?: number;
    /** `updated_at` as the claim saw it, to the microsecond: an edit since changes it. */
    seen_updated_at?: string;
  };
