import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUpViaApi, type TestApp } from '../../test-support/app.ts';
import { api } from '../schedules/test-kit.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
}, 60_000);
afterAll(() => t.close());

interface Person {
  email: string;
  cookie: string;
  id: string;
}

async function digestPerson(email: string, timeZone: string | null): Promise<Person> {
  const cookie = await signUpViaApi(t.app, { email, ...(timeZone && { timeZone }) }, t.url);
  const me = await api(t, cookie, 'GET', '/api/me');
  const saved = await api(t, cookie, 'PUT', '/api/notifications/settings', {
    emailTypes: ['story_ready'],
    digest: true,
  });
  expect(saved.statusCode, saved.body).toBe(200);
  return { email, cookie, id: me.json<{ id: string }>().id };
}

async function digestsTo(email: string): Promise<number> {
  const rows = await t.context.database.db
    .selectFrom('mail_outbox')
    .select('id')
    .where('kind', '=', 'notification-digest')
    .where('to_address', '=', email)
    .execute();
  return rows.length;
}

/**
 * Runs the hourly tick (HH:01 UTC) through one whole UTC day, twice per tick (a retried or
 * doubled job), with something new to tell each person before every tick; returns, per person,
 * the UTC hours at which a digest was queued.
 */
async function runDay(day: string, people: Record<string, Person>) {
  const sentAt: Record<string, number[]> = Object.fromEntries(
    Object.keys(people).map((name) => [name, []]),
  );
  for (let hour = 0; hour < 24; hour++) {
    const tick = new Date(`${day}T${String(hour).padStart(2, '0')}:01:00Z`);
    const before: Record<string, number> = {};
    for (const [name, person] of Object.entries(people)) {
      before[name] = await digestsTo(person.email);
      await t.context.notifications.notify({
        userId: person.id,
        type: 'story_ready',
        dedupeKey: `story_ready:${day}:${hour}`,
        data: { storyId: `${day}-${hour}` },
      });
    }
    await Promise.all([
      t.context.notifications.sendDigests(tick),
      t.context.notifications.sendDigests(tick),
    ]);
    for (const [name, person] of Object.entries(people)) {
      const after = await digestsTo(person.email);
      if (after > (before[name] ?? 0)) sentAt[name]?.push(hour);
      expect(after - (before[name] ?? 0), `${name} at ${hour}:01`).toBeLessThanOrEqual(1);
    }
  }
  return sentAt;
}

describe('the daily digest at 07:00 in each person’s own time zone', () => {
  it('goes out once a day at the local 07:00, across DST changes', async () => {
    const people = {
      paris: await digestPerson('paris@example.com', 'Europe/Paris'),
      newYork: await digestPerson('new-york@example.com', 'America/New_York'),
      kolkata: await digestPerson('kolkata@example.com', 'Asia/Kolkata'),
      utc: await digestPerson('no-zone@example.com', null),
    };
    // 29 March 2026: Paris moves to summer time at 01:00 UTC (07:00 CEST = 05:00 UTC); New York
    // is already on EDT (07:00 = 11:00 UTC); Kolkata is +05:30 all year (07:31 at 02:01 UTC).
    expect(await runDay('2026-03-29', people)).toEqual({
      paris: [5],
      newYork: [11],
      kolkata: [2],
      utc: [7],
    });
    // 1 November 2026: New York falls back to EST at 06:00 UTC (07:00 EST = 12:00 UTC); Paris
    // is on CET since 25 October (07:00 = 06:00 UTC).
    expect(await runDay('2026-11-01', people)).toEqual({
      paris: [6],
      newYork: [12],
      kolkata: [2],
      utc: [7],
    });
  }, 240_000);

  it('makes up a tick missed in the morning, but never sends in the afternoon', async () => {
    const late = await digestPerson('late@example.com', 'Europe/Paris');
    await t.context.notifications.notify({
      userId: late.id,
      type: 'story_ready',
      dedupeKey: 'story_ready:late',
      data: { storyId: 'late' },
    });
    // 14:01 in Paris: too late today.
    await t.context.notifications.sendDigests(new Date('2026-06-10T12:01:00Z'));
    expect(await digestsTo(late.email)).toBe(0);
    // The next morning the 07:01 tick was missed (no worker ran); the 09:01 one sends it.
    await t.context.notifications.sendDigests(new Date('2026-06-11T07:01:00Z'));
    expect(await digestsTo(late.email)).toBe(1);
    await t.context.notifications.sendDigests(new Date('2026-06-11T08:01:00Z'));
    expect(await digestsTo(late.email)).toBe(1);
  });
});
