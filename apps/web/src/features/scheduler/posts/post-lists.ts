import { addDaysToDate, groupByLocalDay, localDateOf } from '@cadence/shared/schedule/planner';
import type { Post, PostStatus } from '@cadence/shared/schemas/schedule';
import { z } from 'zod';
import { listStatuses, type PostFilters, type PostList } from '../api/get-post-pages.ts';

// The list views' pure parts: the filters read from the URL, and the posts cut into days.

/** Search parameters of the list views (`?account=` is taken: it opens the form on an account). */
export const filterParams = { accountId: 'accountId', status: 'status' } as const;

const uuid = z.uuid();

/**
 * The filters in the URL, each dropped when it cannot apply to `list` (a status of the other list,
 * a malformed id): a stale or hand-edited link shows the whole list rather than an error.
 */
export function filtersFromSearch(search: URLSearchParams, list: PostList): PostFilters {
  const accountId = search.get(filterParams.accountId);
  const status = search.get(filterParams.status);
  return {
    accountId: accountId !== null && uuid.safeParse(accountId).success ? accountId : null,
    status:
      listStatuses[list].find((candidate): candidate is PostStatus => candidate === status) ?? null,
  };
}

/** How a day reads relative to today: 'Aujourd'hui', 'Demain', 'Hier', or its date. */
export type DayRelation = 'today' | 'tomorrow' | 'yesterday' | 'other';

export interface DayGroup {
  /** 'yyyy-MM-dd' in the zone. */
  date: string;
  relation: DayRelation;
  posts: Post[];
}

/**
 * The instant a post stands at in `list`: in the queue its due time, in the history the time of
 * its outcome (published, failed, cancelled), so that a post cancelled today for next week is
 * today's. The server orders each list on the same instant.
 */
export function listInstant(list: PostList, post: Post): string {
  return list === 'history' ? (post.outcomeAt ?? post.dueAt) : post.dueAt;
}

/**
 * The posts (in the list's order) cut into the days their instant in `list` falls on in
 * `timeZone`, each day said relative to `now`'s day there. A DST change inside a day neither
 * splits nor merges it.
 */
export function groupPostsByDay(
  posts: readonly Post[],
  list: PostList,
  timeZone: string,
  now: Date,
): DayGroup[] {
  const today = localDateOf(now, timeZone);
  const relations = new Map<string, DayRelation>([
    [today, 'today'],
    [addDaysToDate(today, 1), 'tomorrow'],
    [addDaysToDate(today, -1), 'yesterday'],
  ]);
  return groupByLocalDay(posts, (post) => new Date(listInstant(list, post)), timeZone).map(
    ({ date, items }) => ({ date, relation: relations.get(date) ?? 'other', posts: items }),
  );
}
