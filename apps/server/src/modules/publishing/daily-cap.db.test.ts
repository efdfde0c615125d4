import { addDaysToDate, localDateOf, zonedDateTimeToUtc } from '@cadence/shared/schedule/planner';
import { sameTimeOn } from '@cadence/shared/schedule/daily-cap';
import type { Post } from '@cadence/shared/schemas/schedule';
import { describe, expect, it } from 'vitest';
import { seedPosts } from '../../test-support/seed-posts.ts';
import { addVideo, api, createSchedule, scheduleBody } from '../schedules/test-kit.ts';
import { usePublishingTestApp } from './test-kit.ts';

const kit = usePublishingTestApp();
const { sandbox, ledgerPostsTitled, waitForStatus, freshAccount, postNamed } = kit;
const zone = 'Europe/Paris';

/** The first of `ids` Cadence postponed (pending again, with its note). */
async function waitForNote(...ids: string[]): Promise<Post> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    for (const id of ids) {
      const post = await postNamed(id);
      if (post?.note !== null && post?.note !== undefined) return post;
    }
    if (Date.now() > deadline) throw new Error(`none of ${ids.join(', ')} was postponed`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe("TikTok's daily cap at publish time", () => {
  it('postpones a post TikTok refuses with spam_risk_too_many_posts to the next day, pending', async () => {
    const { id: account, username } = await freshAccount();
    // The sandbox takes one direct post per 24 h from this creator, then answers the cap.
    sandbox().control.setUserFlags({ username }, { maxDirectPostsPerDay: 1 });
    const videos = [
      await addVideo(kit.t, kit.user, kit.dir, 'cap-1'),
      await addVideo(kit.t, kit.user, kit.dir, 'cap-2'),
    ];
    const created = await createSchedule(kit.t, kit.user, {
      ...scheduleBody(
        account,
        videos.map((video) => video.mediaId),
      ),
      posts: videos.map((video, index) => ({ mediaId: video.mediaId, title: `Capped ${index}` })),
    });
    const [first, second] = created.posts;
    if (!first || !second) throw new Error('two posts');

    // One is published, the other waits for tomorrow (which one depends on the workers).
    const noted = await waitForNote(first.id, second.id);
    const settled =
      noted.id === first.id
        ? { postponed: first, published: second }
        : { postponed: second, published: first };
    const published = await waitForStatus(settled.published.id, ['completed', 'failed']);
    expect(published.status).toBe('completed');
    const postponed = await postNamed(settled.postponed.id);
    const originalDue = new Date(settled.postponed.dueAt);
    expect(postponed).toMatchObject({
      status: 'pending',
      failReason: null,
      note: 'schedules.notes.postponedDailyCap',
      postponedFrom: settled.postponed.dueAt,
    });
    // Same time of day, on the next day in the user's zone (the schedule's, Paris: none is set).
    const tomorrow = addDaysToDate(localDateOf(new Date(), zone), 1);
    expect(postponed?.dueAt).toBe(sameTimeOn(originalDue, tomorrow, zone).toISOString());
    // Only one post reached TikTok.
    expect([...ledgerPostsTitled('Capped 0'), ...ledgerPostsTitled('Capped 1')]).toHaveLength(1);

    // Choosing a time is the user's decision again: the note goes.
    const moved = await api(
      kit.t,
      kit.user.cookie,
      'POST',
      `/api/posts/${settled.postponed.id}/reschedule`,
      {
        dueAt: '2099-01-01T10:00:00Z',
      },
    );
    expect(moved.json<Post>()).toMatchObject({ note: null, postponedFrom: null });
  });

  it("postpones a post beyond Cadence's own count for today without asking TikTok", async () => {
    const { id: account } = await freshAccount();
    const video = await addVideo(kit.t, kit.user, kit.dir, 'cadence-cap');
    // 15 (TIKTOK_DAILY_POST_CAP's default) posts of this account already published today.
    const startOfToday = zonedDateTimeToUtc(localDateOf(new Date(), zone), '00:00', zone);
    await seedPosts(
      kit.t.context.database.db,
      { userId: kit.user.id, accountId: account, username: 'seeded', mediaId: video.mediaId },
      Array.from({ length: 15 }, () => ({ dueAt: startOfToday, status: 'completed' as const })),
      zone,
    );
    const created = await createSchedule(kit.t, kit.user, {
      ...scheduleBody(account, [video.mediaId]),
      posts: [{ mediaId: video.mediaId, title: 'Sixteenth' }],
    });
    const id = created.posts[0]?.id ?? '';
    const postponed = await waitForNote(id);
    expect(postponed).toMatchObject({
      status: 'pending',
      note: 'schedules.notes.postponedCadenceCap',
    });
    expect(localDateOf(new Date(postponed.dueAt), zone)).toBe(
      addDaysToDate(localDateOf(new Date(), zone), 1),
    );
    expect(ledgerPostsTitled('Sixteenth')).toEqual([]);
  });
});
