// The unaudited lane (issue 12): Cadence and its sandbox started as an app TikTok has not audited
// yet (TIKTOK_APP_AUDITED=false). content-sharing-guidelines, 'Direct Post API': such an app posts
// only SELF_ONLY, only to private accounts, and for at most 5 creators in 24 hours.
import type { PublicConfig } from '@cadence/shared/schemas/user';
import { describe, expect, it } from 'vitest';
import { addVideo, api, scheduleBody } from '../schedules/test-kit.ts';
import { usePublishingTestApp } from './test-kit.ts';

const kit = usePublishingTestApp({ TIKTOK_APP_AUDITED: 'false' });
const { freshAccount, ledgerPostsTitled, waitForStatus } = kit;

async function schedule(accountId: string, title: string, overrides = {}) {
  const video = await addVideo(kit.t, kit.user, kit.dir, title.replace(/\W/g, '_'));
  return api(kit.t, kit.user.cookie, 'POST', '/api/schedules', {
    ...scheduleBody(accountId, [video.mediaId], { privacyLevel: 'SELF_ONLY', ...overrides }),
    posts: [{ mediaId: video.mediaId, title }],
  });
}

/** A connected account whose TikTok account is private. */
async function privateAccount() {
  const account = await freshAccount();
  kit.sandbox().control.setUserFlags({ username: account.username }, { privateAccount: true });
  return account;
}

describe('an app TikTok has not audited', () => {
  it("tells the browser, and posts only 'Only me' to private accounts, for 5 creators a day", async () => {
    const config = await kit.t.app.inject({ url: '/api/public-config' });
    expect(config.json<PublicConfig>().tiktokAppAudited).toBe(false);

    // A public account: refused before anything is stored, with the way out in words.
    const open = await freshAccount();
    const refusedPublic = await schedule(open.id, 'Public account');
    expect(refusedPublic.statusCode).toBe(409);
    expect(refusedPublic.json<{ fields: Record<string, string> }>().fields).toEqual({
      accountId: 'schedules.errors.unauditedPublicAccount',
    });

    // A private account: only SELF_ONLY, which TikTok then publishes.
    const first = await privateAccount();
    const followers = await schedule(first.id, 'Followers', {
      privacyLevel: 'FOLLOWER_OF_CREATOR',
    });
    expect(followers.statusCode).toBe(400);
    expect(followers.json<{ fields: Record<string, string> }>().fields).toEqual({
      privacyLevel: 'schedules.errors.unauditedSelfOnly',
    });
    const created = await schedule(first.id, 'Private 1');
    expect(created.statusCode, created.body).toBe(201);
    const postId = created.json<{ posts: { id: string }[] }>().posts[0]?.id ?? '';
    const done = await waitForStatus(postId, ['completed', 'failed']);
    expect(done.status, done.failReason ?? '').toBe('completed');
    expect(ledgerPostsTitled('Private 1')[0]?.post_info?.privacy_level).toBe('SELF_ONLY');

    // Four more creators post; TikTok then refuses a sixth (reached_active_user_cap), and the
    // form learns why from creator_info.
    const posted = [];
    for (let index = 2; index <= 5; index++) {
      const account = await privateAccount();
      const response = await schedule(account.id, `Private ${index}`);
      expect(response.statusCode, response.body).toBe(201);
      posted.push(response.json<{ posts: { id: string }[] }>().posts[0]?.id ?? '');
    }
    for (const id of posted) {
      expect((await waitForStatus(id, ['completed', 'failed'])).status).toBe('completed');
    }
    const sixth = await privateAccount();
    const info = await api(kit.t, kit.user.cookie, 'GET', `/api/accounts/${sixth.id}/creator-info`);
    expect(info.statusCode).toBe(200);
    expect(info.json<{ cannotPostReason: string | null }>().cannotPostReason).toBe(
      'reached_active_user_cap',
    );
    const capped = await schedule(sixth.id, 'Private 6');
    expect(capped.statusCode).toBe(409);
    expect(capped.json<{ fields: Record<string, string> }>().fields).toEqual({
      accountId: 'schedules.errors.cannotPostNow',
    });
    // One of the five keeps posting.
    const again = await schedule(first.id, 'Private 1 again');
    expect(again.statusCode, again.body).toBe(201);
    // Five creators' posts published through the sandbox, beside the other test files: a bound
    // for a stuck run, not a target.
  }, 180_000);
});
