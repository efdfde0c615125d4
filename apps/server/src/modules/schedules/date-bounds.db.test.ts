// Dates at the edges of the calendar, on every endpoint that takes one: what a client may send is
// bounded where it comes in (1970-01-01 to 9998-12-31, instants before 9999-12-31), and a spaced
// plan that runs past the last year is refused. Before, a date near 9999 plus a time zone's offset,
// a range's day after, or a plan's spacing reached PostgreSQL as year 10000 ('+010000-…', which it
// cannot read) or year 0, and the answer was a 500.
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  addVideo,
  api,
  connectTikTok,
  createSchedule,
  scheduleBody,
  signUp,
  useScheduleTestApp,
  type TestUser,
} from './test-kit.ts';

const kit = useScheduleTestApp('cadence-date-bounds-');
let creator: TestUser;
let account: string;
let videos: string[];
let pendingPost: string;

beforeAll(async () => {
  creator = await signUp(kit.t, 'edges.of.time@example.com');
  account = await connectTikTok(kit.t, creator, 'edges_of_time');
  videos = [];
  for (const name of ['d1', 'd2'])
    videos.push((await addVideo(kit.t, creator, kit.dir, name)).mediaId);
  const created = await createSchedule(
    kit.t,
    creator,
    scheduleBody(account, [videos[0] ?? ''], {
      publishType: 'scheduled',
      date: '2099-06-01',
      time: '12:00',
    }),
  );
  pendingPost = created.posts[0]?.id ?? '';
}, 60_000);

/** Everything a refused request could have changed: the user's posts, schedules and drafts. */
async function footprint() {
  const db = kit.t.context.database.db;
  const rows = await sql<{ posts: string; schedules: string; drafts: string }>`
    select (select string_agg(id || status || due_at::text, ',' order by id) from posts
              where user_id = ${creator.id}) as posts,
           (select count(*)::text from schedules where user_id = ${creator.id}) as schedules,
           (select count(*)::text from drafts where user_id = ${creator.id}) as drafts`.execute(db);
  return rows.rows[0];
}

const cursor = (dueAt: string) =>
  Buffer.from(JSON.stringify([dueAt, '00000000-0000-4000-8000-000000000000'])).toString(
    'base64url',
  );

const spacedFar = (startDate: string) => ({
  publishType: 'spaced' as const,
  timeZone: 'Pacific/Kiritimati',
  spacedInterval: {
    count: 1,
    value: 1000,
    unit: 'days' as const,
    startTime: '23:59',
    startDate,
    randomizeTime: false,
  },
});

describe('dates at the edges of the calendar', () => {
  it('are refused with a 400 naming the field, on every endpoint, and change nothing', async () => {
    const before = await footprint();
    const farBody = (overrides: object) => scheduleBody(account, videos, overrides);
    const requests: [string, 'GET' | 'POST' | 'PATCH', string, object | undefined][] = [
      [
        'analytics, last day',
        'GET',
        '/api/analytics/overview?period=custom&from=9999-12-31&to=9999-12-31&timeZone=UTC',
        undefined,
      ],
      [
        'analytics, year 0',
        'GET',
        '/api/analytics/overview?period=custom&from=0000-01-01&to=0000-01-07&timeZone=UTC',
        undefined,
      ],
      [
        'analytics CSV',
        'GET',
        '/api/analytics/export.csv?period=custom&from=9999-12-25&to=9999-12-31&timeZone=UTC&table=days',
        undefined,
      ],
      [
        'calendar, year 0',
        'GET',
        '/api/posts/calendar?from=0000-01-01T00:00:00Z&to=0000-01-20T00:00:00Z&timeZone=Pacific/Honolulu',
        undefined,
      ],
      [
        'calendar, year 9999',
        'GET',
        '/api/posts/calendar?from=9999-12-30T00:00:00Z&to=9999-12-31T23:00:00Z&timeZone=UTC',
        undefined,
      ],
      [
        'queue cursor, year 0',
        'GET',
        `/api/posts/queue?cursor=${cursor('0000-01-01T00:00:00Z')}`,
        undefined,
      ],
      [
        'history cursor, year 9999',
        'GET',
        `/api/posts/history?cursor=${cursor('9999-12-31T12:00:00Z')}`,
        undefined,
      ],
      [
        'reschedule past 9999',
        'POST',
        `/api/posts/${pendingPost}/reschedule`,
        { dueAt: '9999-12-31T23:59:59-14:00' },
      ],
      [
        'edit past 9999',
        'PATCH',
        `/api/posts/${pendingPost}`,
        { dueAt: '9999-12-31T23:59:59-14:00' },
      ],
      [
        'reschedule, year 1',
        'POST',
        `/api/posts/${pendingPost}/reschedule`,
        { dueAt: '0001-01-01T00:00:00Z' },
      ],
      [
        'schedule, last minute of 9999',
        'POST',
        '/api/schedules',
        farBody({
          publishType: 'scheduled',
          timeZone: 'Pacific/Honolulu',
          date: '9999-12-31',
          time: '23:59',
        }),
      ],
      ['schedule, spaced past 9999', 'POST', '/api/schedules', farBody(spacedFar('9998-12-30'))],
      [
        'preview, spaced past 9999',
        'POST',
        '/api/schedules/preview',
        { accountId: account, mediaIds: videos, ...spacedFar('9998-12-30') },
      ],
      [
        'preview, year 9999',
        'POST',
        '/api/schedules/preview',
        {
          accountId: account,
          mediaIds: videos,
          publishType: 'scheduled',
          timeZone: 'UTC',
          date: '9999-06-01',
          time: '12:00',
        },
      ],
    ];
    for (const [name, method, url, payload] of requests) {
      const response = await api(kit.t, creator.cookie, method, url, payload);
      expect(response.statusCode, `${name}: ${response.body}`).toBe(400);
      const body = response.json<{ code: string; fields?: Record<string, string> }>();
      expect(['validation_failed', 'invalid_request'], name).toContain(body.code);
      // A field and a message key the form shows next to it.
      expect(Object.values(body.fields ?? {}).length, `${name}: ${response.body}`).toBeGreaterThan(
        0,
      );
    }
    expect(await footprint()).toEqual(before);
  });

  it('says why a spaced plan is refused: its last slots are too far ahead', async () => {
    const response = await api(kit.t, creator.cookie, 'POST', '/api/schedules/preview', {
      accountId: account,
      mediaIds: videos,
      ...spacedFar('9998-12-30'),
    });
    expect(response.json()).toMatchObject({
      fields: { 'spacedInterval.value': 'errors.dateTooFar' },
    });
  });

  it('takes the last supported day, in the zones farthest ahead and behind', async () => {
    for (const timeZone of ['Pacific/Kiritimati', 'Pacific/Honolulu', 'Pacific/Pago_Pago']) {
      const created = await createSchedule(
        kit.t,
        creator,
        scheduleBody(account, [videos[1] ?? ''], {
          publishType: 'scheduled',
          timeZone,
          date: '9998-12-31',
          time: '23:59',
        }),
      );
      const dueAt = created.posts[0]?.dueAt ?? '';
      expect(dueAt.startsWith('9998-12-31') || dueAt.startsWith('9999-01-01'), dueAt).toBe(true);
      const calendar = await api(
        kit.t,
        creator.cookie,
        'GET',
        `/api/posts/calendar?from=9998-12-30T00:00:00Z&to=9999-01-02T00:00:00Z&timeZone=${timeZone}`,
      );
      expect(calendar.statusCode, calendar.body).toBe(200);
    }
    // The preview and a schedule that postpones past TikTok's daily cap both look a year past
    // the last post for days with room: never past the supported years.
    const lastDay = {
      publishType: 'scheduled' as const,
      timeZone: 'UTC',
      date: '9998-12-31',
      time: '12:00',
    };
    const preview = await api(kit.t, creator.cookie, 'POST', '/api/schedules/preview', {
      accountId: account,
      mediaIds: [videos[0]],
      ...lastDay,
    });
    expect(preview.statusCode, preview.body).toBe(200);
    const postponing = await api(
      kit.t,
      creator.cookie,
      'POST',
      '/api/schedules',
      scheduleBody(account, [videos[0] ?? ''], { ...lastDay, overCap: 'postpone' }),
    );
    expect(postponing.statusCode, postponing.body).toBe(201);
    const analytics = await api(
      kit.t,
      creator.cookie,
      'GET',
      '/api/analytics/overview?period=custom&from=9998-12-25&to=9998-12-31&timeZone=Pacific/Kiritimati',
    );
    expect(analytics.statusCode, analytics.body).toBe(200);
  });
});
