import type { PostPage } from '@cadence/shared/schemas/planning';
import type { Post } from '@cadence/shared/schemas/schedule';
import type { InfiniteData } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { belongsTo } from '../api/get-post-pages.ts';
import { dateTimeFields, dateTimeInstant } from './date-time.ts';
import { applyPostToPages } from './use-post-events.ts';
import { postEdit } from './post-edit.ts';
import { testPost } from './post-fixture.ts';
import { filtersFromSearch, groupPostsByDay, listInstant } from './post-lists.ts';

const accountId = '11111111-1111-4111-8111-111111111111';

const post = testPost;

describe('groupPostsByDay', () => {
  // Paris moves from UTC+1 to UTC+2 at 02:00 on Sunday 29 March 2026 (01:00 UTC).
  it('keeps the day of the spring-forward change whole, around its missing hour', () => {
    const posts = [
      post('a', '2026-03-28T22:59:00.000Z'), // Saturday 23:59 (UTC+1)
      post('b', '2026-03-28T23:00:00.000Z'), // Sunday 00:00
      post('c', '2026-03-29T00:59:00.000Z'), // Sunday 01:59, just before the gap
      post('d', '2026-03-29T01:00:00.000Z'), // Sunday 03:00 (UTC+2)
      post('e', '2026-03-29T21:59:00.000Z'), // Sunday 23:59 (UTC+2)
      post('f', '2026-03-29T22:00:00.000Z'), // Monday 00:00
    ];
    const now = new Date('2026-03-28T08:00:00.000Z'); // Saturday morning in Paris
    const groups = groupPostsByDay(posts, 'queue', 'Europe/Paris', now);
    expect(
      groups.map((group) => [group.date, group.relation, group.posts.map((p) => p.id)]),
    ).toEqual([
      ['2026-03-28', 'today', ['a']],
      ['2026-03-29', 'tomorrow', ['b', 'c', 'd', 'e']],
      ['2026-03-30', 'other', ['f']],
    ]);
  });

  // Back from UTC+2 to UTC+1 at 03:00 on Sunday 25 October 2026 (01:00 UTC): 02:xx happens twice.
  it('keeps the day of the fall-back change whole, its repeated hour included', () => {
    const posts = [
      post('a', '2026-10-24T21:59:00.000Z'), // Saturday 23:59 (UTC+2)
      post('b', '2026-10-24T22:00:00.000Z'), // Sunday 00:00
      post('c', '2026-10-25T00:30:00.000Z'), // Sunday 02:30, first time (UTC+2)
      post('d', '2026-10-25T01:30:00.000Z'), // Sunday 02:30, second time (UTC+1)
      post('e', '2026-10-25T22:59:00.000Z'), // Sunday 23:59 (UTC+1)
      post('f', '2026-10-25T23:00:00.000Z'), // Monday 00:00
    ];
    const now = new Date('2026-10-25T12:00:00.000Z');
    const groups = groupPostsByDay(posts, 'queue', 'Europe/Paris', now);
    expect(groups.map((group) => [group.date, group.relation, group.posts.length])).toEqual([
      ['2026-10-24', 'yesterday', 1],
      ['2026-10-25', 'today', 4],
      ['2026-10-26', 'tomorrow', 1],
    ]);
  });

  it("reads 'today' in the user's zone, not UTC's", () => {
    // At 20:00 UTC, a post at 23:30 UTC is later today in Tokyo (both on the 2nd) and in New
    // York (both on the 1st), but tomorrow in London (21:00 on the 1st, 00:30 on the 2nd).
    const now = new Date('2026-06-01T20:00:00.000Z');
    const posts = [post('a', '2026-06-01T23:30:00.000Z')];
    expect(groupPostsByDay(posts, 'queue', 'Asia/Tokyo', now)[0]?.relation).toBe('today');
    expect(groupPostsByDay(posts, 'queue', 'America/New_York', now)[0]?.relation).toBe('today');
    expect(groupPostsByDay(posts, 'queue', 'Europe/London', now)[0]?.relation).toBe('tomorrow');
  });

  it('keeps the order it is given (newest first for the history)', () => {
    const now = new Date('2026-06-10T12:00:00.000Z');
    const posts = [
      post('b', '2026-06-09T18:00:00.000Z', {
        status: 'completed',
        outcomeAt: '2026-06-09T18:01:00.000Z',
      }),
      post('a', '2026-06-09T08:00:00.000Z', {
        status: 'completed',
        outcomeAt: '2026-06-09T08:01:00.000Z',
      }),
    ];
    const [day] = groupPostsByDay(posts, 'history', 'Europe/Paris', now);
    expect(day?.relation).toBe('yesterday');
    expect(day?.posts.map((p) => p.id)).toEqual(['b', 'a']);
  });
});

describe('groupPostsByDay in the history', () => {
  // Regression: the history was grouped by due time, so a post due next Friday that the creator
  // cancelled today sat above today's heading, under next Friday's date.
  it('puts a post cancelled today for later under today, by when it was cancelled', () => {
    const now = new Date('2026-06-10T12:00:00.000Z'); // Wednesday, 14:00 in Paris
    const posts = [
      post('cancelled', '2026-06-12T16:00:00.000Z', {
        status: 'cancelled',
        outcomeAt: '2026-06-10T11:30:00.000Z',
      }),
      post('published', '2026-06-10T08:00:00.000Z', {
        status: 'completed',
        outcomeAt: '2026-06-10T08:02:00.000Z',
      }),
      post('failed', '2026-06-09T17:00:00.000Z', {
        status: 'failed',
        outcomeAt: '2026-06-09T17:00:30.000Z',
      }),
    ];
    const groups = groupPostsByDay(posts, 'history', 'Europe/Paris', now);
    expect(
      groups.map((group) => [group.date, group.relation, group.posts.map((p) => p.id)]),
    ).toEqual([
      ['2026-06-10', 'today', ['cancelled', 'published']],
      ['2026-06-09', 'yesterday', ['failed']],
    ]);
    // The queue keeps its due times.
    expect(listInstant('queue', posts[0]!)).toBe('2026-06-12T16:00:00.000Z');
  });
});

describe('filtersFromSearch', () => {
  it('takes an account id and a status of the list', () => {
    const search = new URLSearchParams({ accountId, status: 'failed' });
    expect(filtersFromSearch(search, 'history')).toEqual({ accountId, status: 'failed' });
  });

  it('drops a status of the other list and an id that is not one, rather than failing', () => {
    const search = new URLSearchParams({ accountId: 'lea', status: 'failed' });
    expect(filtersFromSearch(search, 'queue')).toEqual({ accountId: null, status: null });
  });
});

describe('applyPostToPages (the live stream on a loaded list)', () => {
  const pages = (...lists: Post[][]): InfiniteData<PostPage, string | null> => ({
    pages: lists.map((posts, index) => ({
      posts,
      nextCursor: index < lists.length - 1 ? 'c' : null,
    })),
    pageParams: lists.map((_, index) => (index === 0 ? null : 'c')),
  });
  const a = post('a', '2026-06-01T10:00:00.000Z');
  const b = post('b', '2026-06-01T11:00:00.000Z');
  const all = { accountId: null, status: null };

  it('updates a post in place while it stays on the list', () => {
    const publishing = { ...b, status: 'publishing' as const };
    const result = applyPostToPages(
      pages([a], [b]),
      publishing,
      belongsTo(publishing, 'queue', all),
    );
    expect(result.outcome).toBe('updated');
    expect(result.data.pages[1]?.posts[0]?.status).toBe('publishing');
  });

  it('takes a published post off the queue without reading it again', () => {
    const published = { ...a, status: 'completed' as const };
    const result = applyPostToPages(pages([a, b]), published, belongsTo(published, 'queue', all));
    expect(result.outcome).toBe('removed');
    expect(result.data.pages[0]?.posts.map((p) => p.id)).toEqual(['b']);
  });

  it('asks for the list again for a post new to it, or moved in time', () => {
    const fresh = post('c', '2026-06-01T10:30:00.000Z');
    expect(applyPostToPages(pages([a, b]), fresh, true).outcome).toBe('stale');
    const moved = { ...a, dueAt: '2026-06-02T10:00:00.000Z' };
    expect(applyPostToPages(pages([a, b]), moved, true).outcome).toBe('stale');
    // Cancelled again after a restore (the stream gives the latest state only): news again.
    const cancelled = { ...a, status: 'cancelled' as const, outcomeAt: '2026-05-30T09:00:00.000Z' };
    const again = { ...cancelled, outcomeAt: '2026-05-31T09:00:00.000Z' };
    expect(applyPostToPages(pages([cancelled]), again, true).outcome).toBe('stale');
  });

  it('ignores a post the filters leave out', () => {
    const other = post('c', '2026-06-01T10:30:00.000Z', { accountId: null });
    const byAccount = { accountId, status: null };
    expect(belongsTo(other, 'queue', byAccount)).toBe(false);
    expect(applyPostToPages(pages([a]), other, false).outcome).toBe('unrelated');
  });
});

describe('postEdit', () => {
  const pending = post('a', '2026-06-01T16:30:00.000Z', { title: 'Before' });
  const values = {
    title: 'Before',
    privacyLevel: 'SELF_ONLY' as const,
    allowComment: false,
    allowDuet: false,
    allowStitch: false,
    when: { date: '2026-06-01', time: '18:30' }, // 16:30 UTC in Paris (UTC+2)
  };

  it('sends nothing when nothing changed', () => {
    expect(postEdit(pending, values, 'Europe/Paris')).toEqual({ edit: null, invalidTime: false });
  });

  it('sends only what changed, the time read in the zone', () => {
    const result = postEdit(
      pending,
      {
        ...values,
        title: 'After',
        allowComment: true,
        when: { date: '2026-06-02', time: '09:15' },
      },
      'Europe/Paris',
    );
    expect(result.edit).toEqual({
      title: 'After',
      allowComment: true,
      dueAt: '2026-06-02T07:15:00.000Z',
    });
  });

  it('says so when the date or time cannot be read', () => {
    expect(
      postEdit(pending, { ...values, when: { date: '', time: '18:30' } }, 'Europe/Paris'),
    ).toEqual({
      edit: null,
      invalidTime: true,
    });
  });
});

describe('dateTimeFields / dateTimeInstant', () => {
  it("shows a post's time on the zone's clocks, and reads it back", () => {
    const fields = dateTimeFields(
      '2026-07-14T16:30:00.000Z',
      'Europe/Paris',
      new Date('2026-07-01T00:00:00Z'),
    );
    expect(fields).toEqual({ date: '2026-07-14', time: '18:30' });
    expect(dateTimeInstant(fields, 'Europe/Paris')).toBe('2026-07-14T16:30:00.000Z');
  });

  it('offers the next occurrence of the same clock time for a time already past', () => {
    const now = new Date('2026-07-20T12:00:00.000Z'); // 14:00 in Paris
    expect(dateTimeFields('2026-07-14T16:30:00.000Z', 'Europe/Paris', now)).toEqual({
      date: '2026-07-20',
      time: '18:30',
    });
    expect(dateTimeFields('2026-07-14T06:00:00.000Z', 'Europe/Paris', now)).toEqual({
      date: '2026-07-21',
      time: '08:00',
    });
  });
});
