import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { usePublishingTestApp } from '../publishing/test-kit.ts';
import {
  addVideo,
  api,
  createSchedule,
  listPosts,
  scheduleBody,
  type TestUser,
} from '../schedules/test-kit.ts';

const kit = usePublishingTestApp();

async function schedule(
  accountId: string,
  title: string,
  when: { date: string; time: string } | 'now',
): Promise<string> {
  const video = await addVideo(kit.t, kit.user, kit.dir, title.replace(/\W/g, '_'));
  const created = await createSchedule(kit.t, kit.user, {
    ...scheduleBody(
      accountId,
      [video.mediaId],
      when === 'now' ? {} : { publishType: 'scheduled', ...when },
    ),
    posts: [{ mediaId: video.mediaId, title }],
  });
  const id = created.posts[0]?.id;
  if (id === undefined) throw new Error('no post');
  return id;
}

async function listAccounts(user: TestUser) {
  const response = await api(kit.t, user.cookie, 'GET', '/api/accounts');
  expect(response.statusCode).toBe(200);
  return response.json<{ accounts: { id: string; username: string; scheduledCount: number }[] }>()
    .accounts;
}

/** The post's time has come: its due time is now and the publisher is woken for it. */
async function makeDue(postId: string) {
  await sql`update posts set due_at = now(), wake_at = now() where id = ${postId}`.execute(
    kit.t.context.database.db,
  );
  return kit.publisher.advance(postId);
}

describe('deleting a TikTok account', () => {
  // Regression: posts and schedules were deleted with the account (on delete cascade), so the
  // posts just cancelled and every published or failed one vanished from the list.
  it("keeps the account's post history, cancels its pending post for good, and frees the username", async () => {
    const { id: accountId, username } = await kit.freshAccount();
    const publishedId = await schedule(accountId, 'Kept published', 'now');
    const published = await kit.waitForStatus(publishedId, ['completed', 'failed']);
    expect(published.status, published.failReason ?? '').toBe('completed');
    kit
      .sandbox()
      .control.failNext(
        'video_init',
        { type: 'error_body', code: 'spam_risk_user_banned_from_posting' },
        1,
      );
    const failedId = await schedule(accountId, 'Kept failed', 'now');
    expect((await kit.waitForStatus(failedId, ['completed', 'failed'])).status).toBe('failed');
    const pendingId = await schedule(accountId, 'Never published', {
      date: '2099-01-01',
      time: '09:00',
    });
    expect((await listAccounts(kit.user)).find((a) => a.id === accountId)).toMatchObject({
      scheduledCount: 1,
    });

    const deleted = await api(kit.t, kit.user.cookie, 'DELETE', `/api/accounts/${accountId}`);
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(deleted.json()).toEqual({ cancelledPosts: 1 });
    expect((await listAccounts(kit.user)).map((a) => a.id)).not.toContain(accountId);

    // The history is still there, under the username the posts were made with.
    const posts = await listPosts(kit.t, kit.user);
    const byId = (id: string) => posts.find((post) => post.id === id);
    expect(byId(publishedId)).toMatchObject({
      status: 'completed',
      accountId: null,
      accountUsername: username,
      tiktokPostUrl: published.tiktokPostUrl,
    });
    expect(byId(failedId)).toMatchObject({
      status: 'failed',
      accountId: null,
      accountUsername: username,
      failReason: 'spam_risk_user_banned_from_posting',
    });
    expect(byId(pendingId)).toMatchObject({
      status: 'cancelled',
      accountId: null,
      accountUsername: username,
    });

    // Its time comes: nothing is published.
    expect(await makeDue(pendingId)).toBe('not_ready');
    await kit.publisher.sweep(0);
    expect(kit.ledgerPostsTitled('Never published')).toEqual([]);
    expect((await kit.postNamed(pendingId))?.status).toBe('cancelled');

    // A failed post of a deleted account cannot be retried: there is no account to post to.
    const retry = await api(kit.t, kit.user.cookie, 'POST', `/api/posts/${failedId}/retry`);
    expect(retry.statusCode).toBe(409);
    expect(retry.json()).toMatchObject({
      fields: { accountId: 'schedules.errors.accountDeleted' },
    });
    expect((await kit.postNamed(failedId))?.status).toBe('failed');

    // The same username can be added again, as a new account without the old one's posts.
    const again = await api(kit.t, kit.user.cookie, 'POST', '/api/accounts', { username });
    expect(again.statusCode, again.body).toBe(201);
    const added = again.json<{ id: string }>().id;
    expect((await listAccounts(kit.user)).find((a) => a.id === added)).toMatchObject({
      username,
      scheduledCount: 0,
    });
    expect(await listPosts(kit.t, kit.user)).toHaveLength(posts.length);
  });

  it('fails a post with reason account_deleted when its account is gone before it is published', async () => {
    const { id: accountId } = await kit.freshAccount();
    const postId = await schedule(accountId, 'Orphaned', { date: '2099-01-01', time: '09:00' });
    // A post left pending when the account went (a retry racing the deletion): the publisher
    // must not try to post it anywhere.
    await kit.t.context.accountRepository.delete(kit.user.id, accountId);
    expect(await makeDue(postId)).toBe('failed');
    expect(await kit.postNamed(postId)).toMatchObject({
      status: 'failed',
      failReason: 'account_deleted',
    });
    expect(kit.ledgerPostsTitled('Orphaned')).toEqual([]);
  });
});
