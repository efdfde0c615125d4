// 'Send to my TikTok inbox': the video goes to /v2/post/publish/inbox/video/init/ (video.upload)
// and the post is done at SEND_TO_USER_INBOX; TikTok allows 5 pending shares per 24 h.
import { describe, expect, it } from 'vitest';
import { addVideo, api, createSchedule, scheduleBody } from '../schedules/test-kit.ts';
import { usePublishingTestApp } from './test-kit.ts';

const kit = usePublishingTestApp();

describe('inbox drafts', () => {
  it('sends the video to the inbox byte for byte, with no post_info, and marks the post done there', async () => {
    const { post, sha256 } = await kit.publishNow('Inbox draft #one', { delivery: 'inbox' });
    expect(post.delivery).toBe('inbox');
    const done = await kit.waitForStatus(post.id, ['completed', 'failed']);
    expect(done.status, done.failReason ?? '').toBe('completed');
    expect(done).toMatchObject({ delivery: 'inbox', tiktokPostId: null, tiktokPostUrl: null });
    const ledger = kit.sandbox().ledger();
    const sent = ledger.posts.filter((candidate) => candidate.kind === 'inbox');
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ sha256, post_info: null, status: 'SEND_TO_USER_INBOX' });
    expect(sent[0]?.publish_id).toMatch(/^v_inbox_file~v2\.\d{19}$/);
  });

  // Issue 12: TikTok's inbox init takes no post_info; the creator sets privacy in the TikTok app.
  it('takes an inbox draft without a privacy level (and keeps none), but not a direct post', async () => {
    const { id: account } = await kit.freshAccount();
    const video = await addVideo(kit.t, kit.user, kit.dir, 'inbox_no_privacy');
    const { privacyLevel: _privacyLevel, ...withoutPrivacy } = scheduleBody(
      account,
      [video.mediaId],
      { publishType: 'scheduled', date: '2099-05-05', time: '10:00' },
    );
    const direct = await api(kit.t, kit.user.cookie, 'POST', '/api/schedules', withoutPrivacy);
    expect(direct.statusCode).toBe(400);
    expect(direct.json()).toMatchObject({ fields: { privacyLevel: 'errors.selectPrivacy' } });

    const inbox = await createSchedule(kit.t, kit.user, { ...withoutPrivacy, delivery: 'inbox' });
    expect(inbox.posts.map((post) => [post.delivery, post.privacyLevel])).toEqual([
      ['inbox', null],
    ]);
    // One sent anyway is not kept: it would mean nothing.
    const ignored = await createSchedule(kit.t, kit.user, {
      ...withoutPrivacy,
      privacyLevel: 'PUBLIC_TO_EVERYONE',
      delivery: 'inbox',
    });
    expect(ignored.posts[0]?.privacyLevel).toBeNull();
    // Nor does an edit give it one.
    const edited = await api(
      kit.t,
      kit.user.cookie,
      'PATCH',
      `/api/posts/${ignored.posts[0]?.id}`,
      {
        privacyLevel: 'SELF_ONLY',
        title: 'edited inbox draft',
      },
    );
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ title: 'edited inbox draft', privacyLevel: null });
    for (const post of [...inbox.posts, ...ignored.posts])
      await api(kit.t, kit.user.cookie, 'POST', `/api/posts/${post.id}/cancel`);
  });

  it('tells the creator the draft is in their TikTok inbox (not that it is published)', async () => {
    const { post } = await kit.publishNow('Inbox draft #told', { delivery: 'inbox' });
    await kit.waitForStatus(post.id, ['completed', 'failed']);
    // The notification follows the status change: wait for it.
    await expect
      .poll(
        async () => {
          const response = await api(kit.t, kit.user.cookie, 'GET', '/api/notifications');
          const { notifications } = response.json<{
            notifications: { type: string; data: { postId?: string } }[];
          }>();
          return notifications
            .filter((item) => item.data.postId === post.id)
            .map((item) => item.type);
        },
        { timeout: 15_000, interval: 200 },
      )
      .toEqual(['post_sent_to_inbox']);
  });

  it('fails the sixth draft of a day with TikTok’s pending-share cap, said in words', async () => {
    const { id: account } = await kit.freshAccount();
    const ids: string[] = [];
    for (let index = 0; index < 6; index++) {
      const video = await addVideo(kit.t, kit.user, kit.dir, `inbox_cap_${index}`);
      const created = await createSchedule(kit.t, kit.user, {
        ...scheduleBody(account, [video.mediaId], { delivery: 'inbox' }),
        posts: [{ mediaId: video.mediaId, title: `Draft ${index}` }],
      });
      const id = created.posts[0]?.id ?? '';
      // One at a time, so that the sixth is the one over the cap.
      await kit.waitForStatus(id, ['completed', 'failed'], 40_000);
      ids.push(id);
    }
    const posts = await Promise.all(ids.map((id) => kit.postNamed(id)));
    expect(posts.slice(0, 5).map((post) => post?.status)).toEqual(Array(5).fill('completed'));
    expect(posts[5]).toMatchObject({
      status: 'failed',
      failReason: 'spam_risk_too_many_pending_share',
    });
  });
});
