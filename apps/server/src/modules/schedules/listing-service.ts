import type { Calendar, CalendarPost, PostPage } from '@cadence/shared/schemas/planning';
import type { PostStatus } from '@cadence/shared/schemas/schedule';
import type { UserRepository } from '../users/repository.ts';
import {
  CALENDAR_TITLE_LENGTH,
  decodeCursor,
  encodeCursor,
  type ListKind,
  type PostListing,
} from './post-listing.ts';
import { postViewer, thumbnailUrl } from './post-view.ts';
import type { PostViewRow } from './post-view-queries.ts';

export interface PostListingServiceDeps {
  /** Where TikTok's video pages are: config.tiktok.authBase (the sandbox in sandbox mode). */
  tiktokWebBase: string;
  listing: PostListing;
  users: Pick<UserRepository, 'timeZoneOf'>;
  /** TIKTOK_DAILY_POST_CAP. */
  dailyPostCap: number;
}

export interface PageQuery {
  accountId?: string | undefined;
  status?: PostStatus[] | undefined;
  cursor?: string | undefined;
  limit: number;
}

export interface CalendarQueryInput {
  from: string;
  to: string;
  timeZone?: string | undefined;
  accountId?: string | undefined;
  status?: PostStatus[] | undefined;
  limit: number;
}

/** The instant `kind` is ordered on: the due time, or the outcome's (set on every history row). */
function listInstant(kind: ListKind, row: PostViewRow): Date {
  return kind === 'queue' ? row.due_at : (row.outcome_at ?? row.due_at);
}

function shorten(title: string): string {
  const characters = [...title];
  return characters.length <= CALENDAR_TITLE_LENGTH
    ? title
    : `${characters.slice(0, CALENDAR_TITLE_LENGTH - 1).join('')}…`;
}

/** The queue, the history and the calendar of the signed-in user. */
export function createPostListingService(deps: PostListingServiceDeps) {
  const { listing, users, dailyPostCap } = deps;
  const toPost = postViewer(deps.tiktokWebBase);

  return {
    /** A page of the queue (soonest due first) or the history (latest outcome first). */
    async page(userId: string, kind: ListKind, query: PageQuery): Promise<PostPage> {
      const rows = await listing.page(userId, kind, {
        accountId: query.accountId,
        statuses: query.status,
        after: query.cursor === undefined ? undefined : decodeCursor(query.cursor),
        limit: query.limit,
      });
      const shown = rows.slice(0, query.limit);
      const last = shown.at(-1);
      return {
        posts: shown.map(toPost),
        nextCursor:
          rows.length > query.limit && last
            ? encodeCursor({ at: listInstant(kind, last), id: last.id })
            : null,
      };
    },

    /** Posts due in [from, to) (at most `limit`) and every day's count per account. */
    async calendar(userId: string, query: CalendarQueryInput): Promise<Calendar> {
      const from = new Date(query.from);
      const to = new Date(query.to);
      const timeZone = query.timeZone ?? (await users.timeZoneOf(userId)) ?? 'UTC';
      const [rows, days] = await Promise.all([
        listing.range(
          userId,
          from,
          to,
          { accountId: query.accountId, statuses: query.status },
          query.limit,
        ),
        // The counts are of every status: the week view sets each day against the daily cap.
        listing.dayCounts(userId, from, to, timeZone, { accountId: query.accountId }),
      ]);
      const posts = rows.slice(0, query.limit).map((row): CalendarPost => ({
        id: row.id,
        accountId: row.account_id,
        accountUsername: row.account_username,
        mediaId: row.media_id,
        thumbnailUrl: thumbnailUrl(row.media_id, row.thumbnail_key),
        title: shorten(row.title),
        dueAt: row.due_at.toISOString(),
        status: row.status,
        note: row.note,
        delivery: row.delivery,
      }));
      return {
        posts,
        truncated: rows.length > query.limit,
        days: days.map((day) => ({
          date: day.date,
          accountId: day.account_id,
          accountUsername: day.account_username,
          total: Number(day.total),
          towardsCap: Number(day.towards_cap),
        })),
        timeZone,
        dailyCap: dailyPostCap,
      };
    },
  };
}

export type PostListingService = ReturnType<typeof createPostListingService>;
