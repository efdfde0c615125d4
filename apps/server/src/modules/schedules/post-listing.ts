// SQL of the planning lists: keyset pages of the queue and the history, a calendar range and its
// per-day counts. Every query is scoped by user id and bounded in size.
import { historyStatuses, upcomingStatuses } from '@cadence/shared/schemas/planning';
import { instantSchema, type Delivery, type PostStatus } from '@cadence/shared/schemas/schedule';
import { sql, type Kysely } from 'kysely';
import { z } from 'zod';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';
import { inZone } from './in-zone.ts';
import { selectPostViews, type PostViewRow } from './post-view-queries.ts';
import './db-types.ts';

/**
 * A position in a list: the last post shown, by the instant the list is ordered on (the queue's
 * due time, the history's outcome time) and its id (ties).
 */
export interface PageKey {
  at: Date;
  id: string;
}

const cursorShape = z.tuple([instantSchema, z.uuid()]);

/** Opaque to clients: base64url of `[at, id]`. */
export function encodeCursor(key: PageKey): string {
  return Buffer.from(JSON.stringify([key.at.toISOString(), key.id])).toString('base64url');
}

/** The key of a cursor from `encodeCursor`; a 400 for anything else. */
export function decodeCursor(cursor: string): PageKey {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  const result = cursorShape.safeParse(parsed);
  if (!result.success) {
    throw new AppError('validation_failed', 'Invalid cursor', { cursor: 'errors.invalidCursor' });
  }
  return { at: new Date(result.data[0]), id: result.data[1] };
}

export type ListKind = 'queue' | 'history';

export interface PageRequest {
  accountId?: string | undefined;
  statuses?: readonly PostStatus[] | undefined;
  after?: PageKey | undefined;
  limit: number;
}

/** Characters of a caption a calendar chip shows. */
export const CALENDAR_TITLE_LENGTH = 100;

/** A post as the calendar reads it (see `range`). */
export interface CalendarRow {
  id: string;
  account_id: string | null;
  account_username: string;
  media_id: string;
  title: string;
  due_at: Date;
  status: PostStatus;
  note: string | null;
  thumbnail_key: string | null;
  delivery: Delivery;
}

export interface DayCountRow {
  date: string;
  account_id: string | null;
  account_username: string;
  total: number;
  towards_cap: number;
}

/**
 * One page (`limit` + 1 rows: the extra one says whether another page follows). The queue runs
 * forward from the soonest due time, on (due_at, id); the history backward from the latest
 * outcome (published, failed, cancelled), on (outcome_at, id): the order things happened in,
 * whatever the post had been due for. Posts inserted meanwhile never shift a page (no skipped
 * or repeated post).
 */
function page(
  db: Kysely<Database>,
  userId: string,
  kind: ListKind,
  request: PageRequest,
): Promise<PostViewRow[]> {
  // Literal predicates, identical to the partial indexes' (migrations 0014, 0027).
  const statusClass =
    kind === 'queue'
      ? sql<boolean>`posts.status in ('pending', 'publishing')`
      : sql<boolean>`posts.status in ('completed', 'failed', 'cancelled')`;
  const allowed: readonly PostStatus[] = kind === 'queue' ? upcomingStatuses : historyStatuses;
  const statuses = request.statuses?.filter((status) => allowed.includes(status));
  let query = selectPostViews(db)
    .where('posts.user_id', '=', userId)
    .where(statusClass)
    .limit(request.limit + 1);
  if (request.accountId !== undefined) {
    query = query.where('posts.account_id', '=', request.accountId);
  }
  if (statuses !== undefined && statuses.length < allowed.length) {
    query = query.where('posts.status', 'in', statuses);
  }
  const after = request.after;
  if (kind === 'queue') {
    if (after)
      query = query.where(sql<boolean>`(posts.due_at, posts.id) > (${after.at}, ${after.id})`);
    return query.orderBy('posts.due_at', 'asc').orderBy('posts.id', 'asc').execute();
  }
  if (after)
    query = query.where(sql<boolean>`(posts.outcome_at, posts.id) < (${after.at}, ${after.id})`);
  return query.orderBy('posts.outcome_at', 'desc').orderBy('posts.id', 'desc').execute();
}

interface ListFilter {
  accountId?: string | undefined;
  statuses?: readonly PostStatus[] | undefined;
}

/**
 * Posts due in [from, to), soonest first, at most `limit` + 1, with only what a calendar chip
 * shows: a month holds a thousand posts, and every column read costs on each.
 */
function range(
  db: Kysely<Database>,
  userId: string,
  from: Date,
  to: Date,
  filter: ListFilter,
  limit: number,
): Promise<CalendarRow[]> {
  // No join with schedules: a month's posts come from hundreds of them. Only a completed
  // chip needs its schedule's delivery (an inbox draft reads 'In your TikTok inbox'): one
  // primary-key lookup each.
  let query = db
    .selectFrom('posts')
    .innerJoin('media', 'media.id', 'posts.media_id')
    .select([
      'posts.id',
      'posts.account_id',
      'posts.account_username',
      'posts.media_id',
      // One character more than a chip shows, so the caller knows it was cut.
      sql<string>`left(posts.title, ${CALENDAR_TITLE_LENGTH + 1})`.as('title'),
      'posts.due_at',
      'posts.status',
      'posts.note',
      'media.thumbnail_key',
      sql<Delivery>`case when posts.status = 'completed' then (select schedules.delivery from schedules where schedules.id = posts.schedule_id) else 'direct' end`.as(
        'delivery',
      ),
    ])
    .where('posts.user_id', '=', userId)
    .where('posts.due_at', '>=', from)
    .where('posts.due_at', '<', to);
  if (filter.accountId !== undefined) {
    query = query.where('posts.account_id', '=', filter.accountId);
  }
  if (filter.statuses !== undefined) query = query.where('posts.status', 'in', filter.statuses);
  return query
    .orderBy('posts.due_at', 'asc')
    .orderBy('posts.id', 'asc')
    .limit(limit + 1)
    .execute();
}

/** Per account and per day of `timeZone`: every post, and those counting towards the cap. */
function dayCounts(
  db: Kysely<Database>,
  userId: string,
  from: Date,
  to: Date,
  timeZone: string,
  filter: ListFilter,
): Promise<DayCountRow[]> {
  const day = sql<string>`to_char(posts.due_at at time zone ${timeZone}, 'YYYY-MM-DD')`;
  // A deleted account's posts have no account id: they are told apart by the name they had.
  const deletedName = sql<
    string | null
  >`case when posts.account_id is null then posts.account_username end`;
  let query = db
    .selectFrom('posts')
    .select([
      day.as('date'),
      'posts.account_id',
      sql<string>`max(posts.account_username)`.as('account_username'),
      sql<number>`count(*)::int`.as('total'),
      sql<number>`(count(*) filter (where posts.status in ('pending', 'publishing', 'completed')))::int`.as(
        'towards_cap',
      ),
    ])
    .where('posts.user_id', '=', userId)
    .where('posts.due_at', '>=', from)
    .where('posts.due_at', '<', to);
  if (filter.accountId !== undefined) {
    query = query.where('posts.account_id', '=', filter.accountId);
  }
  if (filter.statuses !== undefined) query = query.where('posts.status', 'in', filter.statuses);
  // By position: a second `${timeZone}` would be another parameter, so another expression.
  return inZone(() =>
    query
      .groupBy([sql`1`, 'posts.account_id', deletedName])
      .orderBy(sql`1`)
      .orderBy(sql`max(posts.account_username)`)
      .orderBy('posts.account_id')
      .execute(),
  );
}

export function createPostListing(db: Kysely<Database>) {
  return {
    page: (userId: string, kind: ListKind, request: PageRequest) => page(db, userId, kind, request),
    range: (userId: string, from: Date, to: Date, filter: ListFilter, limit: number) =>
      range(db, userId, from, to, filter, limit),
    dayCounts: (userId: string, from: Date, to: Date, timeZone: string, filter: ListFilter) =>
      dayCounts(db, userId, from, to, timeZone, filter),
  };
}

export type PostListing = ReturnType<typeof createPostListing>;
