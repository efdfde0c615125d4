import { localDateOf, localTimeOf } from '@cadence/shared/schedule/planner';
import type { Calendar, PostingSlots } from '@cadence/shared/schemas/planning';
import { describe, expect, it } from 'vitest';
import {
  addVideo,
  api,
  connectTikTok,
  createSchedule,
  listPosts,
  scheduleBody,
  signUp,
  useScheduleTestApp,
} from '../schedules/test-kit.ts';

const kit = useScheduleTestApp('cadence-zone-change-');

async function digestsTo(email: string): Promise<number> {
  const rows = await kit.t.context.database.db
    .selectFrom('mail_outbox')
    .select('id')
    .where('kind', '=', 'notification-digest')
    .where('to_address', '=', email)
    .execute();
  return rows.length;
}

describe('changing my time zone', () => {
  it('keeps every post at its instant while days, slot times and the digest follow the new zone', async () => {
    const { t } = kit;
    const user = await signUp(t, 'traveller@example.com');
    expect(
      (await api(t, user.cookie, 'PATCH', '/api/me', { timeZone: 'Europe/Paris' })).statusCode,
    ).toBe(200);
    const accountId = await connectTikTok(t, user, 'traveller');
    const { mediaId } = await addVideo(t, user, kit.dir, 'late');
    // 23:30 in Paris on 10 January: already 07:30 on the 11th in Tokyo.
    await createSchedule(
      t,
      user,
      scheduleBody(accountId, [mediaId], {
        publishType: 'scheduled',
        date: '2099-01-10',
        time: '23:30',
        timeZone: 'Europe/Paris',
      }),
    );
    const [before] = await listPosts(t, user);
    const slots = await api(t, user.cookie, 'PUT', `/api/accounts/${accountId}/slots`, {
      slots: [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, time: '09:00' })),
    });
    expect(slots.statusCode, slots.body).toBe(200);
    const saved = await api(t, user.cookie, 'PUT', '/api/notifications/settings', {
      emailTypes: ['story_ready'],
      digest: true,
    });
    expect(saved.statusCode, saved.body).toBe(200);

    const calendarDays = async () => {
      const calendar = await api(
        t,
        user.cookie,
        'GET',
        '/api/posts/calendar?from=2099-01-09T00:00:00Z&to=2099-01-13T00:00:00Z',
      );
      expect(calendar.statusCode, calendar.body).toBe(200);
      const body = calendar.json<Calendar>();
      return { timeZone: body.timeZone, days: body.days.map((day) => day.date) };
    };
    const nextSlots = async () => {
      const answer = await api(t, user.cookie, 'GET', `/api/accounts/${accountId}/slots`);
      expect(answer.statusCode, answer.body).toBe(200);
      return answer.json<PostingSlots>();
    };
    expect(await calendarDays()).toEqual({ timeZone: 'Europe/Paris', days: ['2099-01-10'] });
    const paris = await nextSlots();
    expect(paris.timeZone).toBe('Europe/Paris');
    expect(new Set(paris.nextFree.map((at) => localTimeOf(new Date(at), 'Europe/Paris')))).toEqual(
      new Set(['09:00']),
    );

    // 22:01 UTC: 23:01 in Paris, no digest; 07:01 the next morning in Tokyo.
    await t.context.notifications.notify({
      userId: user.id,
      type: 'story_ready',
      dedupeKey: 'story_ready:zone-change',
      data: { storyId: 'zone-change' },
    });
    const tick = new Date('2026-06-10T22:01:00Z');
    await t.context.notifications.sendDigests(tick);
    expect(await digestsTo(user.email)).toBe(0);

    const changed = await api(t, user.cookie, 'PATCH', '/api/me', { timeZone: 'Asia/Tokyo' });
    expect(changed.statusCode, changed.body).toBe(200);

    const [after] = await listPosts(t, user);
    expect(after).toMatchObject({ id: before!.id, dueAt: before!.dueAt, status: 'pending' });
    expect(localDateOf(new Date(after!.dueAt), 'Asia/Tokyo')).toBe('2099-01-11');
    expect(await calendarDays()).toEqual({ timeZone: 'Asia/Tokyo', days: ['2099-01-11'] });
    const tokyo = await nextSlots();
    expect(tokyo.timeZone).toBe('Asia/Tokyo');
    expect(new Set(tokyo.nextFree.map((at) => localTimeOf(new Date(at), 'Asia/Tokyo')))).toEqual(
      new Set(['09:00']),
    );
    await t.context.notifications.sendDigests(tick);
    expect(await digestsTo(user.email)).toBe(1);
  });
});
