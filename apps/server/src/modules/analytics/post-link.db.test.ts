import type { PostMetrics, PostMetricsList } from '@cadence/shared/schemas/analytics';
import { describe, expect, it } from 'vitest';
import { usePublishingTestApp } from '../publishing/test-kit.ts';
import { api, signUp } from '../schedules/test-kit.ts';

const app = usePublishingTestApp();

async function metricsOf(postId: string, cookie = app.user.cookie) {
  const response = await api(app.t, cookie, 'GET', `/api/analytics/posts/${postId}`);
  return { status: response.statusCode, body: response.json<PostMetrics>() };
}

async function accountOfPost(postId: string): Promise<string> {
  const row = await app.t.context.database.db
    .selectFrom('posts')
    .select(['account_id', 'tiktok_post_id'])
    .where('id', '=', postId)
    .executeTakeFirstOrThrow();
  return row.account_id ?? '';
}

describe('analytics of posts published by Cadence', () => {
  it('links the post to its TikTok video, also when TikTok’s id arrives late', async () => {
    const { post } = await app.publishNow('analytics link');
    const published = await app.waitForStatus(post.id, ['completed']);
    const db = app.t.context.database.db;
    const { tiktok_post_id: videoId } = await db
      .selectFrom('posts')
      .select('tiktok_post_id')
      .where('id', '=', published.id)
      .executeTakeFirstOrThrow();
    expect(videoId).toMatch(/^\d{19}$/);

    // The id has not reached the post yet when the sync first sees the video.
    await db.updateTable('posts').set({ tiktok_post_id: null }).where('id', '=', post.id).execute();
    const accountId = await accountOfPost(post.id);
    expect((await app.t.context.analyticsSync.syncAccount(accountId)).status).toBe('synced');
    expect((await metricsOf(post.id)).body).toEqual({ postId: post.id, video: null, series: [] });
    const unlinked = await db
      .selectFrom('analytics_videos')
      .select('post_id')
      .where('video_id', '=', videoId ?? '')
      .executeTakeFirstOrThrow();
    expect(unlinked.post_id).toBeNull();

    // The id arrives: the post shows its video at once, and the next sync stores the link.
    await db
      .updateTable('posts')
      .set({ tiktok_post_id: videoId })
      .where('id', '=', post.id)
      .execute();
    const late = await metricsOf(post.id);
    expect(late.body.video).toMatchObject({ videoId, title: 'analytics link' });
    expect(late.body.series.length).toBeGreaterThanOrEqual(1);
    await app.t.context.analyticsSync.syncAccount(accountId);
    const linked = await db
      .selectFrom('analytics_videos')
      .select('post_id')
      .where('video_id', '=', videoId ?? '')
      .executeTakeFirstOrThrow();
    expect(linked.post_id).toBe(post.id);

    const list = await api(app.t, app.user.cookie, 'GET', `/api/analytics/posts?ids=${post.id}`);
    const [entry] = list.json<PostMetricsList>().posts;
    expect(entry).toMatchObject({ postId: post.id });
    expect(entry?.sparkline.length).toBeGreaterThanOrEqual(1);

    // Someone else asking about this post learns nothing.
    const stranger = await signUp(app.t, 'stranger-post-metrics@example.com');
    expect((await metricsOf(post.id, stranger.cookie)).status).toBe(404);
    const theirs = await api(app.t, stranger.cookie, 'GET', `/api/analytics/posts?ids=${post.id}`);
    expect(theirs.json<PostMetricsList>().posts).toEqual([]);
  });
});
